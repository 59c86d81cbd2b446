/**
 * The users table: one insert used by both the seed and sign-up, and the queries the
 * session endpoints and the dev shell need.
 */
import { createHash } from 'node:crypto';
import type * as z from 'zod/mini';
import type { MineInfo } from '../../src/api/contract/session';
import type { Db } from '../db/database';
import { avatarNameFor, avatarUrl } from '../web/avatars';

/** SPEC §3 userType. */
export const UserType = { user: 1, host: 2 } as const;
export type UserType = (typeof UserType)[keyof typeof UserType];

export interface UserRow {
  id: number;
  account: string | null;
  password_hash: string | null;
  nickname: string;
  user_type: UserType;
  is_visitor: 0 | 1;
  user_level: number;
  country_id: number | null;
  icon: string;
  yx_accid: string;
  is_new_user: 0 | 1;
  is_vip: 0 | 1;
  device_id: string | null;
  created_at: string;
  /** Null when not given (sign-ups, visitors). */
  age: number | null;
  /** A host's call price in diamonds per minute; null when not set (read as 0). */
  video_price: number | null;
}

/** A row to insert; `id` is given by the seed and left to SQLite for sign-ups. */
export type NewUser = Omit<UserRow, 'id'> & { id?: number };

export interface ShellAccount {
  userId: number;
  account: string;
  nickname: string;
  userType: number;
  userLevel: number;
  /** The IM account, so the shell (and tests) can address a person by it. */
  yxAccid: string;
  /** VIP members may pin chats (SPEC §6). */
  isVip: boolean;
  /** The country's ISO code, when there is one (a call's chat is translated between countries' languages). */
  countryCode: string | null;
}

/** The IM account id, stable for a given key (the account, or a visitor's device). */
export function yxAccidFor(key: string): string {
  return 'yx' + createHash('sha256').update(key.toLowerCase()).digest('hex').slice(0, 24);
}

/** 'Visitor 4821': four digits that depend only on the device id. */
export function visitorNickname(deviceId: string): string {
  const n = createHash('sha256').update(deviceId).digest().readUInt32BE(0) % 9000;
  return `Visitor ${1000 + n}`;
}

const COLUMNS = [
  'id', 'account', 'password_hash', 'nickname', 'user_type', 'is_visitor', 'user_level', 'country_id', 'icon',
  'yx_accid', 'is_new_user', 'is_vip', 'device_id', 'created_at', 'age', 'video_price',
] as const satisfies readonly (keyof UserRow)[];

const INSERT_SQL = `INSERT INTO users (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`;

export function insertUser(db: Db, user: NewUser): number {
  const row = { ...user, id: user.id ?? null };
  return Number(db.prepare(INSERT_SQL).run(row).lastInsertRowid);
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export type Users = ReturnType<typeof createUsers>;

export function createUsers(db: Db) {
  const byAccount = db.prepare<[string], UserRow>('SELECT * FROM users WHERE account = ?');
  const byId = db.prepare<[number], UserRow>('SELECT * FROM users WHERE id = ?');
  const visitorByDevice = db.prepare<[string], UserRow>('SELECT * FROM users WHERE device_id = ? AND is_visitor = 1');
  const media = db.prepare<[number], { media_type: 1 | 2; media_url: string }>(
    'SELECT media_type, media_url FROM user_media WHERE user_id = ? ORDER BY sort',
  );
  const updateNames = db.prepare<{ id: number; nickname: string | null; icon: string | null }>(
    'UPDATE users SET nickname = coalesce(@nickname, nickname), icon = coalesce(@icon, icon) WHERE id = @id',
  );
  const clearMedia = db.prepare<[number]>('DELETE FROM user_media WHERE user_id = ?');
  const insertMedia = db.prepare<[number, number, 1 | 2, string]>(
    'INSERT INTO user_media (user_id, sort, media_type, media_url) VALUES (?, ?, ?, ?)',
  );
  const accounts = db.prepare<[], Omit<ShellAccount, 'isVip'> & { isVip: 0 | 1 }>(
    `SELECT u.id AS userId, u.account, u.nickname, u.user_type AS userType, u.user_level AS userLevel, u.yx_accid AS yxAccid,
            u.is_vip AS isVip, c.code AS countryCode
       FROM users u LEFT JOIN countries c ON c.id = u.country_id WHERE u.is_visitor = 0 ORDER BY u.user_type DESC, u.id`,
  );

  /** A user created at run time (sign-up or visitor): a normal user at level 0. */
  const runtimeUser = (
    fields: Pick<NewUser, 'account' | 'password_hash' | 'nickname' | 'is_visitor' | 'device_id'>,
    accidKey: string,
  ): NewUser => ({
    ...fields,
    user_type: UserType.user,
    user_level: 0,
    country_id: null,
    icon: avatarUrl(avatarNameFor(fields.nickname)),
    yx_accid: yxAccidFor(accidKey),
    is_new_user: 1,
    is_vip: 0,
    created_at: new Date().toISOString(),
    age: null,
    video_price: null,
  });

  return {
    findByAccount: (account: string): UserRow | undefined => byAccount.get(account),
    findById: (id: number): UserRow | undefined => byId.get(id),

    /** Creates a normal user; undefined when the account is taken (the unique index decides, so racing sign-ups are safe). */
    register(account: string, passwordHash: string, nickname: string): UserRow | undefined {
      try {
        const id = insertUser(db, runtimeUser(
          { account, password_hash: passwordHash, nickname, is_visitor: 0, device_id: null },
          `account:${account}`,
        ));
        return byId.get(id);
      } catch (err) {
        if (isUniqueViolation(err)) return undefined;
        throw err;
      }
    },

    /** The visitor of this device, created on first entry. */
    visitor(deviceId: string): UserRow {
      const existing = visitorByDevice.get(deviceId);
      if (existing) return existing;
      const id = insertUser(db, runtimeUser(
        { account: null, password_hash: null, nickname: visitorNickname(deviceId), is_visitor: 1, device_id: deviceId },
        `device:${deviceId}`,
      ));
      return byId.get(id)!;
    },

    /** SPEC §3 current user, in the contract's input shape; `imToken` is the asking session's (server/auth/sessions.ts). */
    mineInfo(id: number, imToken: string): z.input<typeof MineInfo> | undefined {
      const u = byId.get(id);
      if (!u) return undefined;
      return {
        userId: u.id,
        userType: u.user_type,
        yxAccid: u.yx_accid,
        imToken,
        icon: u.icon,
        nickname: u.nickname,
        isNewUser: u.is_new_user === 1,
        vipInfo: { isVip: u.is_vip === 1 },
        userLevel: u.user_level,
        picList: media.all(id).map((m) => ({ mediaType: m.media_type, mediaUrl: m.media_url })),
        ...(u.country_id === null ? {} : { countryId: u.country_id }),
        ...(u.is_visitor === 1 ? { isVisitor: true } : {}),
      };
    },

    /** Everyone who signs in with an account (hosts first), for the dev shell. */
    listAccounts: (): ShellAccount[] => accounts.all().map((a) => ({ ...a, isVip: a.isVip === 1 })),

    /**
     * Changes the given parts of a profile (/api/user/updateUserInfo); a picList replaces the
     * whole list, in its order. The caller has validated the values.
     */
    updateProfile: db.transaction((id: number, changes: ProfileChanges): void => {
      updateNames.run({ id, nickname: changes.nickname ?? null, icon: changes.icon ?? null });
      if (changes.picList === undefined) return;
      clearMedia.run(id);
      changes.picList.forEach((m, k) => insertMedia.run(id, k + 1, m.mediaType, m.mediaUrl));
    }),
  };
}

/** What /api/user/updateUserInfo may change; absent parts stay as they are. */
export interface ProfileChanges {
  nickname?: string;
  icon?: string;
  picList?: readonly { mediaType: 1 | 2; mediaUrl: string }[];
}

/** SPEC §3 `levelName` of a user level, as the reference server names levels: 'Lv.3'. */
export function levelNameOf(level: number): string {
  return `Lv.${level}`;
}

export type Follows = ReturnType<typeof createFollows>;

/**
 * Follows between app users (the `user_follows` table, migration 4). Following is idempotent:
 * `follow` says whether the follow is new, so only a new one is announced (SPEC §4 system
 * message -4). The table's CHECK refuses following oneself; callers refuse it first with a
 * readable message.
 */
export function createFollows(db: Db) {
  const insert = db.prepare<[number, number, number]>(
    'INSERT INTO user_follows (follower_id, followee_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const remove = db.prepare<[number, number]>('DELETE FROM user_follows WHERE follower_id = ? AND followee_id = ?');
  const exists = db.prepare<[number, number], 1>('SELECT 1 FROM user_follows WHERE follower_id = ? AND followee_id = ?').pluck();
  const followers = db.prepare<[number], number>('SELECT count(*) FROM user_follows WHERE followee_id = ?').pluck();
  const following = db.prepare<[number], number>('SELECT count(*) FROM user_follows WHERE follower_id = ?').pluck();

  return {
    /** True when `followerId` did not follow `followeeId` before. */
    follow: (followerId: number, followeeId: number, time = Date.now()): boolean =>
      insert.run(followerId, followeeId, time).changes === 1,
    /** True when there was a follow to remove. */
    unfollow: (followerId: number, followeeId: number): boolean => remove.run(followerId, followeeId).changes === 1,
    follows: (followerId: number, followeeId: number): boolean => exists.get(followerId, followeeId) === 1,
    /** How many follow the user, and how many the user follows. */
    counts: (userId: number): { followerCount: number; followingCount: number } => ({
      followerCount: followers.get(userId) ?? 0,
      followingCount: following.get(userId) ?? 0,
    }),
  };
}

/** A wallet's two balances (SPEC §7 wallet): diamonds to spend, and a host's income (in diamonds). */
export type WalletAccount = 'diamonds' | 'income';

export type Wallets = ReturnType<typeof createWallets>;

/**
 * Wallet balances (the `wallets` table; no row reads as zero) with a flow row for every
 * change. `spend` is one conditional UPDATE, so it never takes a balance below zero; callers
 * that spend for something run it inside their own transaction with the row that records
 * what was bought, so a refusal leaves nothing behind.
 */
export function createWallets(db: Db) {
  const balance = db.prepare<[number], { diamonds: number; income: number }>('SELECT diamonds, income FROM wallets WHERE user_id = ?');
  const spend = db.prepare<{ userId: number; amount: number }, number>(
    'UPDATE wallets SET diamonds = diamonds - @amount WHERE user_id = @userId AND diamonds >= @amount RETURNING diamonds',
  ).pluck();
  const earn = {
    diamonds: db.prepare<{ userId: number; amount: number }, number>(
      `INSERT INTO wallets (user_id, diamonds) VALUES (@userId, @amount)
       ON CONFLICT (user_id) DO UPDATE SET diamonds = diamonds + @amount RETURNING diamonds`,
    ).pluck(),
    income: db.prepare<{ userId: number; amount: number }, number>(
      `INSERT INTO wallets (user_id, income) VALUES (@userId, @amount)
       ON CONFLICT (user_id) DO UPDATE SET income = income + @amount RETURNING income`,
    ).pluck(),
  };
  const flow = db.prepare(
    `INSERT INTO wallet_flows (user_id, account, amount, balance, reason, ref_id, created_at)
     VALUES (@userId, @account, @amount, @balance, @reason, @refId, @time)`,
  );
  const positive = (amount: number) => {
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`Wallet amounts are positive integers, not ${amount}.`);
  };

  return {
    diamonds: (userId: number): number => balance.get(userId)?.diamonds ?? 0,
    income: (userId: number): number => balance.get(userId)?.income ?? 0,

    /** Takes `amount` diamonds; the balance after, or undefined (nothing taken) when it is short. */
    spend(userId: number, amount: number, reason: string, refId: number | null): number | undefined {
      positive(amount);
      const after = spend.get({ userId, amount });
      if (after === undefined) return undefined;
      flow.run({ userId, account: 'diamonds', amount: -amount, balance: after, reason, refId, time: Date.now() });
      return after;
    },

    /** Adds `amount` to one of the balances; the balance after. */
    earn(userId: number, account: WalletAccount, amount: number, reason: string, refId: number | null): number {
      positive(amount);
      const after = earn[account].get({ userId, amount })!;
      flow.run({ userId, account, amount, balance: after, reason, refId, time: Date.now() });
      return after;
    },
  };
}
