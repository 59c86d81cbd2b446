import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../auth/password';
import { createUsers } from '../users/users';
import { openDatabase, type Db } from './database';
import { FIRST_RUNTIME_USER_ID, migrate } from './migrations';
import { CUSTOMER_SERVICE, SEED_PASSWORD, seed } from './seed';

const TABLES = ['countries', 'users', 'user_media', 'tags', 'user_tags', 'app_config', 'customer_service'] as const;

/** Every seeded table, row by row, in a fixed order. */
const dump = (db: Db) =>
  Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()]));

const counts = (db: Db) =>
  Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT count(*) AS n FROM ${t}`).pluck().get()]));

const seeded = (options?: Parameters<typeof seed>[1]) => {
  const db = openDatabase(':memory:');
  seed(db, options);
  return db;
};

describe('deterministic seed', () => {
  it('gives two fresh database files identical contents', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anchor-seed-'));
    const [a, b] = ['a.db', 'b.db'].map((name) => {
      const db = openDatabase(join(dir, name));
      seed(db);
      return db;
    }) as [Db, Db];
    try {
      const users = (db: Db) => JSON.stringify(db.prepare('SELECT * FROM users ORDER BY id').all());
      expect(users(b)).toBe(users(a));
      expect(dump(b)).toEqual(dump(a));
    } finally {
      a.close();
      b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('changes nothing when run again', () => {
    const db = seeded();
    const before = dump(db);
    seed(db);
    expect(counts(db)).toEqual(counts(seeded()));
    expect(dump(db)).toEqual(before);
  });

  it('keeps app_config values edited at run time', () => {
    const db = seeded();
    db.prepare("UPDATE app_config SET value = '9' WHERE key = 'max_no_use_app_reminder_time'").run();
    seed(db);
    expect(db.prepare("SELECT value FROM app_config WHERE key = 'max_no_use_app_reminder_time'").pluck().get()).toBe('9');
  });

  it('seeds 6 hosts and 4 users with the documented accounts, levels, countries and tags', () => {
    const db = seeded();
    const users = db.prepare('SELECT account, user_type, user_level, country_id FROM users ORDER BY id').all() as {
      account: string; user_type: number; user_level: number; country_id: number;
    }[];
    expect(users.map((u) => u.account)).toEqual([
      ...[1, 2, 3, 4, 5, 6].map((i) => `host${i}@example.com`),
      ...[1, 2, 3, 4].map((i) => `user${i}@example.com`),
    ]);
    const hosts = users.filter((u) => u.user_type === 2);
    expect(new Set(hosts.map((u) => u.user_level)).size).toBe(6);
    expect(new Set(hosts.map((u) => u.country_id)).size).toBe(6);
    expect(new Set(users.filter((u) => u.user_type === 1).map((u) => u.user_level)).size).toBe(4);
    expect(db.prepare('SELECT count(DISTINCT tag_id) FROM user_tags').pluck().get()).toBeGreaterThanOrEqual(4);
    expect(db.prepare('SELECT key, value FROM app_config ORDER BY key').all()).toEqual([
      { key: 'achor_hide_button', value: '1,2,3,4,5' },
      { key: 'max_no_use_app_reminder_time', value: '1' },
      { key: 'microsoft_translator_config', value: '{"key":"dev-translator-key","region":"local"}' },
      { key: 'prime_achor_can_call', value: '1' },
    ]);
  });

  it('hashes the dev password with a salt of its own per user', async () => {
    const db = seeded();
    const hashes = db.prepare('SELECT password_hash FROM users').pluck().all() as string[];
    expect(new Set(hashes.map((h) => h.split('$')[4])).size).toBe(hashes.length);
    expect(await verifyPassword(SEED_PASSWORD, hashes[0]!)).toBe(true);
    expect(await verifyPassword('password2', hashes[0]!)).toBe(false);
  });

  it('grows with the host count, keeping the first hosts as they were', () => {
    const small = seeded();
    const large = seeded({ hosts: 60 });
    expect(large.prepare('SELECT count(*) FROM users WHERE user_type = 2').pluck().get()).toBe(60);
    const firstSix = 'SELECT * FROM users WHERE id <= 100006 ORDER BY id';
    expect(large.prepare(firstSix).all()).toEqual(small.prepare(firstSix).all());
    expect(large.prepare("SELECT nickname FROM users WHERE account = 'host11@example.com'").pluck().get()).toBe('Sofia 2');
  });

  it('skips a seeded account that someone signed up with first', () => {
    const db = seeded();
    const taken = createUsers(db).register('host7@example.com', 'scrypt$1$1$1$AA==$AA==', 'Squatter');
    seed(db, { hosts: 7 });
    expect(db.prepare("SELECT id FROM users WHERE account = 'host7@example.com'").pluck().get()).toBe(taken!.id);
    expect(db.prepare('SELECT count(*) FROM user_media WHERE user_id = 100007').pluck().get()).toBe(0);
  });
});

describe('customer service', () => {
  it('seeds one customer-service IM account, apart from the app users', () => {
    const db = seeded();
    expect(db.prepare('SELECT yx_accid, im_token, nickname FROM customer_service').all()).toEqual([
      { yx_accid: CUSTOMER_SERVICE.yxAccid, im_token: CUSTOMER_SERVICE.imToken, nickname: 'Customer Service' },
    ]);
    expect(db.prepare('SELECT count(*) FROM users WHERE yx_accid = ?').pluck().get(CUSTOMER_SERVICE.yxAccid)).toBe(0);
  });
});

describe('migrations', () => {
  it('apply once and give sign-ups ids above the seeded range', () => {
    const db = seeded();
    migrate(db);
    migrate(db);
    expect(db.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual([1, 2]);
    const visitor = createUsers(db).visitor('device-x');
    expect(visitor.id).toBe(FIRST_RUNTIME_USER_ID);
  });
});
