/**
 * Versioned schema migrations. Each migration runs once, in its own transaction, and is
 * recorded in `schema_migrations`; running `migrate` again is a no-op. Append new
 * migrations at the end of the list; never edit one that has shipped.
 */
import type { Db } from './database';

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Ids below this are reserved for seeded users (see seed.ts); sign-ups get ids above it. */
export const FIRST_RUNTIME_USER_ID = 1_000_000;

const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'users, sessions, reference data',
    sql: `
      CREATE TABLE countries (
        id   INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        code TEXT NOT NULL UNIQUE
      );

      CREATE TABLE users (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        account       TEXT COLLATE NOCASE UNIQUE,
        password_hash TEXT,
        nickname      TEXT NOT NULL,
        user_type     INTEGER NOT NULL CHECK (user_type IN (1, 2)),
        is_visitor    INTEGER NOT NULL DEFAULT 0 CHECK (is_visitor IN (0, 1)),
        user_level    INTEGER NOT NULL DEFAULT 0,
        country_id    INTEGER REFERENCES countries (id),
        icon          TEXT NOT NULL,
        yx_accid      TEXT NOT NULL UNIQUE,
        im_token      TEXT NOT NULL,
        is_new_user   INTEGER NOT NULL DEFAULT 1 CHECK (is_new_user IN (0, 1)),
        is_vip        INTEGER NOT NULL DEFAULT 0 CHECK (is_vip IN (0, 1)),
        device_id     TEXT,
        created_at    TEXT NOT NULL,
        -- A visitor is known by its device only; everyone else signs in with account and password.
        CHECK ((is_visitor = 1) = (device_id IS NOT NULL)),
        CHECK (is_visitor = 1 OR (account IS NOT NULL AND password_hash IS NOT NULL))
      );
      CREATE UNIQUE INDEX users_visitor_device ON users (device_id) WHERE is_visitor = 1;
      INSERT INTO sqlite_sequence (name, seq) VALUES ('users', ${FIRST_RUNTIME_USER_ID - 1});

      CREATE TABLE user_media (
        user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        sort       INTEGER NOT NULL,
        media_type INTEGER NOT NULL CHECK (media_type IN (1, 2)),
        media_url  TEXT NOT NULL,
        PRIMARY KEY (user_id, sort)
      );

      CREATE TABLE sessions (
        token       TEXT PRIMARY KEY,
        login_uuid  TEXT NOT NULL UNIQUE,
        user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        app_id      TEXT NOT NULL,
        device_type TEXT NOT NULL,
        device_id   TEXT NOT NULL,
        device_no   TEXT NOT NULL,
        os_type     TEXT NOT NULL,
        os_version  TEXT NOT NULL,
        app_version TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        revoked_at  TEXT
      );
      CREATE INDEX sessions_user ON sessions (user_id);

      CREATE TABLE tags (
        id        INTEGER PRIMARY KEY,
        parent_id INTEGER REFERENCES tags (id),
        name      TEXT NOT NULL
      );

      CREATE TABLE user_tags (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        tag_id  INTEGER NOT NULL REFERENCES tags (id),
        PRIMARY KEY (user_id, tag_id)
      );

      CREATE TABLE app_config (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
];

export function migrate(db: Db): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = new Set(
    db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[],
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
    })();
  }
}
