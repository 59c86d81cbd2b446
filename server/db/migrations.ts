/**
 * Versioned schema migrations. Each migration runs once, in its own transaction, and is
 * recorded in `schema_migrations`; running `migrate` again is a no-op. Append new
 * migrations at the end of the list; never edit one that has shipped.
 */
// The type of better-sqlite3's database, named as database.ts names it (importing it from there would be a cycle).
import type Database from 'better-sqlite3';

type Db = Database.Database;

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
  {
    version: 2,
    name: 'realtime: IM messages, conversations, notifications, blocks, agora tokens, presence, customer service',
    sql: `
      -- One row per p2p message. id is the message's server id; (from_accid, id_client) makes a resend
      -- after a reconnect return the stored row. to_seq is the recipient's sequence number (shared with
      -- im_notifications): a client that logs in with the last sequence it saw gets everything after it.
      CREATE TABLE im_messages (
        id         INTEGER PRIMARY KEY,
        from_accid TEXT NOT NULL,
        to_accid   TEXT NOT NULL,
        id_client  TEXT NOT NULL,
        type       TEXT NOT NULL CHECK (type IN ('text', 'image', 'audio', 'custom')),
        text       TEXT,
        attach     TEXT,
        ext        TEXT,
        from_nick  TEXT NOT NULL,
        time       INTEGER NOT NULL,
        to_seq     INTEGER NOT NULL,
        UNIQUE (from_accid, id_client),
        UNIQUE (to_accid, to_seq)
      );
      CREATE INDEX im_messages_pair_time ON im_messages (from_accid, to_accid, time);

      CREATE TABLE im_notifications (
        id         INTEGER PRIMARY KEY,
        from_accid TEXT NOT NULL,
        to_accid   TEXT NOT NULL,
        content    TEXT NOT NULL,
        time       INTEGER NOT NULL,
        to_seq     INTEGER NOT NULL,
        UNIQUE (to_accid, to_seq)
      );

      -- Per IM account: the last sequence number given out, and the highest one a client confirmed.
      CREATE TABLE im_accounts (
        accid         TEXT PRIMARY KEY,
        last_seq      INTEGER NOT NULL DEFAULT 0,
        delivered_seq INTEGER NOT NULL DEFAULT 0
      );

      -- Each account's view of a p2p conversation; cleared_at hides older messages from that account only.
      CREATE TABLE im_conversations (
        owner       TEXT NOT NULL,
        peer        TEXT NOT NULL,
        last_msg_id INTEGER REFERENCES im_messages (id),
        update_time INTEGER NOT NULL,
        unread      INTEGER NOT NULL DEFAULT 0,
        cleared_at  INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (owner, peer)
      );
      CREATE INDEX im_conversations_recent ON im_conversations (owner, update_time DESC);

      CREATE TABLE user_blocks (
        blocker_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        blocked_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        PRIMARY KEY (blocker_id, blocked_id)
      );

      -- Tokens of /api/index/getAgoraRtmToken; the hub's signalling login accepts a live rtm token.
      CREATE TABLE agora_tokens (
        token      TEXT PRIMARY KEY,
        kind       TEXT NOT NULL CHECK (kind IN ('rtm', 'rtc')),
        user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX agora_tokens_user ON agora_tokens (user_id);

      -- SPEC §4 Presence: the last status code of each user and when the user was last heard from.
      CREATE TABLE user_presence (
        user_id      INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        status       INTEGER NOT NULL CHECK (status IN (2, 10000, 10001, 10002, 10003)),
        last_seen_at INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL
      );

      -- IM-only accounts that /api/im/getCustomerServiceList offers (not app users: they never sign in to the app).
      CREATE TABLE customer_service (
        yx_accid TEXT PRIMARY KEY,
        im_token TEXT NOT NULL,
        nickname TEXT NOT NULL,
        icon     TEXT NOT NULL,
        sort     INTEGER NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'news and chat: mail, wallets, paid private messages, customer-service problems, feedback',
    sql: `
      -- /api/sysmail/loadList: mail_type 1 system mail, 2 station message; user_id NULL is addressed to everyone.
      -- seed_key names a seeded row (NULL for rows made at run time), so seeding again adds nothing.
      CREATE TABLE sys_mail (
        id         INTEGER PRIMARY KEY,
        user_id    INTEGER REFERENCES users (id) ON DELETE CASCADE,
        mail_type  INTEGER NOT NULL CHECK (mail_type IN (1, 2)),
        title      TEXT NOT NULL,
        content    TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        seed_key   TEXT UNIQUE
      );
      CREATE INDEX sys_mail_user_time ON sys_mail (user_id, created_at DESC);

      -- Diamonds a person can spend and a host's income (in diamonds). No row reads as zero; the CHECKs
      -- are the last line against a balance below zero (spending is one conditional UPDATE).
      CREATE TABLE wallets (
        user_id  INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        diamonds INTEGER NOT NULL DEFAULT 0 CHECK (diamonds >= 0),
        income   INTEGER NOT NULL DEFAULT 0 CHECK (income >= 0)
      );

      -- Every change of a wallet, with the balance after it.
      CREATE TABLE wallet_flows (
        id         INTEGER PRIMARY KEY,
        user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account    TEXT NOT NULL CHECK (account IN ('diamonds', 'income')),
        amount     INTEGER NOT NULL,
        balance    INTEGER NOT NULL,
        reason     TEXT NOT NULL,
        ref_id     INTEGER,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX wallet_flows_user ON wallet_flows (user_id, id);

      -- /api/payPrivateMsg: a host's paid message to one recipient; media_list is JSON [{mediaType, mediaUrl}].
      CREATE TABLE private_messages (
        id           INTEGER PRIMARY KEY,
        sender_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        recipient_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        price        INTEGER NOT NULL CHECK (price > 0),
        content      TEXT,
        media_list   TEXT NOT NULL,
        created_at   INTEGER NOT NULL,
        CHECK (sender_id <> recipient_id)
      );

      -- One row per paid view: the primary key is what makes a second payment impossible.
      CREATE TABLE private_message_unlocks (
        private_message_id INTEGER NOT NULL REFERENCES private_messages (id) ON DELETE CASCADE,
        user_id            INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        price              INTEGER NOT NULL,
        created_at         INTEGER NOT NULL,
        PRIMARY KEY (private_message_id, user_id)
      );

      -- /api/chat/common/problem/getCustomerReplyInfo; audience 0 is everyone, else the userType it is for.
      CREATE TABLE customer_problems (
        id       INTEGER PRIMARY KEY,
        audience INTEGER NOT NULL CHECK (audience IN (0, 1, 2)),
        sort     INTEGER NOT NULL,
        problem  TEXT NOT NULL,
        reply    TEXT NOT NULL
      );

      CREATE TABLE feedback_types (
        id   INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        sort INTEGER NOT NULL
      );

      CREATE TABLE feedback (
        id         INTEGER PRIMARY KEY,
        user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        type_id    INTEGER NOT NULL REFERENCES feedback_types (id),
        content    TEXT NOT NULL,
        contact    TEXT,
        app_id     TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX feedback_user ON feedback (user_id);

      -- The translator config of databases seeded before the local translator existed points at it now;
      -- a value edited at run time is left alone.
      UPDATE app_config
         SET value = '{"key":"dev-translator-key","region":"local","endpoint":"/translator/translate"}'
       WHERE key = 'microsoft_translator_config' AND value = '{"key":"dev-translator-key","region":"local"}';
    `,
  },
  {
    version: 4,
    name: 'home and people: age and call price, follows, app pictures (banners), live rooms',
    sql: `
      -- NULL: not given (sign-ups, visitors). The seed fills its own people's NULLs, so a database seeded
      -- before this version gets the values on its next start. video_price is diamonds per minute.
      ALTER TABLE users ADD COLUMN age INTEGER CHECK (age IS NULL OR age BETWEEN 18 AND 120);
      ALTER TABLE users ADD COLUMN video_price INTEGER CHECK (video_price IS NULL OR video_price >= 0);
      CREATE INDEX users_type_id ON users (user_type, id);
      CREATE INDEX user_tags_tag ON user_tags (tag_id, user_id);

      -- /api/user/followUser: one row per follow; following again changes nothing.
      CREATE TABLE user_follows (
        follower_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        followee_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (follower_id, followee_id),
        CHECK (follower_id <> followee_id)
      );
      CREATE INDEX user_follows_follower_time ON user_follows (follower_id, created_at);
      CREATE INDEX user_follows_followee_time ON user_follows (followee_id, created_at);

      -- /api/index/v2/getAppPicByType: banners and other app pictures, by type, in sort order.
      CREATE TABLE app_pics (
        id       INTEGER PRIMARY KEY,
        pic_type INTEGER NOT NULL,
        sort     INTEGER NOT NULL,
        title    TEXT NOT NULL,
        pic_url  TEXT NOT NULL,
        link_url TEXT,
        seed_key TEXT UNIQUE
      );
      CREATE INDEX app_pics_type ON app_pics (pic_type, sort, id);

      -- Live rooms (SPEC §3 Live info) for /api/agora/live/queryLiveList and queryMyFollowLive. Nothing
      -- writes it yet: going live (beginLiveRoom, endLiveRoom) fills it. state 0 living, 1 ended (SPEC §4).
      CREATE TABLE live_rooms (
        id                INTEGER PRIMARY KEY,
        user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        agora_channel_id  TEXT NOT NULL UNIQUE,
        yx_room_id        TEXT NOT NULL,
        title             TEXT NOT NULL DEFAULT '',
        state             INTEGER NOT NULL DEFAULT 0 CHECK (state IN (0, 1)),
        join_num          INTEGER NOT NULL DEFAULT 0 CHECK (join_num >= 0),
        private_call_open INTEGER NOT NULL DEFAULT 0 CHECK (private_call_open IN (0, 1)),
        started_at        INTEGER NOT NULL,
        ended_at          INTEGER
      );
      -- A host has at most one room that is live.
      CREATE UNIQUE INDEX live_rooms_one_live ON live_rooms (user_id) WHERE state = 0;
      CREATE INDEX live_rooms_state_start ON live_rooms (state, started_at DESC);
    `,
  },
  {
    version: 5,
    name: 'calls: call records, billed periods, who is in a call, ratings; gifts, gift categories, gift asks',
    sql: `
      -- One-to-one calls (src/api/contract/call.ts). status is SPEC §4 Call status; payer_id is the normal
      -- user of the call and host_id the host, whoever called whom. price is diamonds per period after the
      -- VIP discount, list_price before it. call_income / gift_income are what the call moved so far.
      CREATE TABLE calls (
        id            INTEGER PRIMARY KEY,
        channel_id    TEXT NOT NULL UNIQUE,
        caller_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        callee_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        payer_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        host_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        call_type     INTEGER NOT NULL CHECK (call_type IN (0, 10)),
        status        INTEGER NOT NULL CHECK (status BETWEEN 0 AND 5),
        price         INTEGER NOT NULL CHECK (price >= 0),
        list_price    INTEGER NOT NULL CHECK (list_price >= 0),
        created_at    INTEGER NOT NULL,
        connected_at  INTEGER,
        ended_at      INTEGER,
        hangup_reason INTEGER CHECK (hangup_reason IS NULL OR hangup_reason IN (1, 2, 6)),
        ended_by      INTEGER REFERENCES users (id) ON DELETE SET NULL,
        end_cause     TEXT,
        periods       INTEGER NOT NULL DEFAULT 0 CHECK (periods >= 0),
        call_income   INTEGER NOT NULL DEFAULT 0 CHECK (call_income >= 0),
        gift_income   INTEGER NOT NULL DEFAULT 0 CHECK (gift_income >= 0),
        CHECK (caller_id <> callee_id),
        CHECK (payer_id IN (caller_id, callee_id) AND host_id IN (caller_id, callee_id) AND payer_id <> host_id),
        CHECK ((status = 3) <= (connected_at IS NOT NULL))
      );
      CREATE INDEX calls_caller_time ON calls (caller_id, created_at DESC, id DESC);
      CREATE INDEX calls_callee_time ON calls (callee_id, created_at DESC, id DESC);
      -- The calls still open (ringing or connected), which the server resumes after a restart.
      CREATE INDEX calls_open ON calls (status) WHERE status IN (1, 3);

      -- Who is in an open call now: one row per person, so nobody is in two calls at once.
      CREATE TABLE call_parties (
        user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        call_id INTEGER NOT NULL REFERENCES calls (id) ON DELETE CASCADE
      );
      CREATE INDEX call_parties_call ON call_parties (call_id);

      -- One row per charged period: the key is what makes charging a period twice impossible.
      CREATE TABLE call_periods (
        call_id    INTEGER NOT NULL REFERENCES calls (id) ON DELETE CASCADE,
        period     INTEGER NOT NULL CHECK (period >= 0),
        amount     INTEGER NOT NULL CHECK (amount >= 0),
        charged_at INTEGER NOT NULL,
        PRIMARY KEY (call_id, period)
      );

      -- /api/chat/callRate: one rating per call and rater; rating again replaces it.
      CREATE TABLE call_ratings (
        call_id     INTEGER NOT NULL REFERENCES calls (id) ON DELETE CASCADE,
        user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        call_type   INTEGER NOT NULL,
        category    INTEGER NOT NULL,
        answer_time INTEGER NOT NULL,
        user_type   INTEGER NOT NULL,
        abnormal    INTEGER NOT NULL CHECK (abnormal IN (0, 1)),
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (call_id, user_id)
      );

      -- /api/gift/v2/getGiftList: categories in sort order; a gift is in any number of them (Popular
      -- holds gifts of other categories). img_key names the same-origin picture (server/web/gifts.ts).
      CREATE TABLE gift_categories (
        id   INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        sort INTEGER NOT NULL
      );
      CREATE TABLE gifts (
        id       INTEGER PRIMARY KEY,
        name     TEXT NOT NULL,
        price    INTEGER NOT NULL CHECK (price > 0),
        img_key  TEXT NOT NULL,
        sort     INTEGER NOT NULL,
        enabled  INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1))
      );
      CREATE TABLE gift_category_items (
        category_id INTEGER NOT NULL REFERENCES gift_categories (id) ON DELETE CASCADE,
        gift_id     INTEGER NOT NULL REFERENCES gifts (id) ON DELETE CASCADE,
        sort        INTEGER NOT NULL,
        PRIMARY KEY (category_id, gift_id)
      );

      -- Every gift sent (the wallet flows point at it).
      CREATE TABLE gift_sends (
        id         INTEGER PRIMARY KEY,
        sender_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        host_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        gift_id    INTEGER NOT NULL REFERENCES gifts (id),
        gift_num   INTEGER NOT NULL CHECK (gift_num BETWEEN 1 AND 99),
        value      INTEGER NOT NULL CHECK (value > 0),
        call_id    INTEGER REFERENCES calls (id) ON DELETE SET NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX gift_sends_host ON gift_sends (host_id, id);

      -- /api/gift/askFor: state 0 pending, 1 refused, 2 fulfilled. The newest ask of a call sets its cooldown.
      CREATE TABLE gift_asks (
        id         INTEGER PRIMARY KEY,
        call_id    INTEGER NOT NULL REFERENCES calls (id) ON DELETE CASCADE,
        host_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        gift_id    INTEGER NOT NULL REFERENCES gifts (id),
        state      INTEGER NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
        created_at INTEGER NOT NULL
      );
      CREATE INDEX gift_asks_call_time ON gift_asks (call_id, created_at DESC);
    `,
  },
  {
    version: 6,
    name: 'live rooms: going live, heartbeats, viewers, wishlists, live gifts, gift task rewards, service gags',
    sql: `
      -- Going live fills live_rooms (migration 4): yx_room_id is the hub chat room, one per room;
      -- last_heartbeat_at is the host's last beginLiveRoom or liveHeartBeatV2 (the room ends when it is
      -- older than the heartbeat window); end_cause says who ended it (src/api/contract/live.ts LiveEndCause).
      ALTER TABLE live_rooms ADD COLUMN cover TEXT;
      ALTER TABLE live_rooms ADD COLUMN last_heartbeat_at INTEGER;
      ALTER TABLE live_rooms ADD COLUMN end_cause TEXT;
      CREATE INDEX live_rooms_user_start ON live_rooms (user_id, started_at DESC, id DESC);
      CREATE INDEX live_rooms_yx_room ON live_rooms (yx_room_id);

      -- Who watched a room: one row per viewer (the room's distinct viewers). present is 1 between a
      -- join and a leave: joining while present is a repeat and does not count into join_num again.
      CREATE TABLE live_room_viewers (
        room_id         INTEGER NOT NULL REFERENCES live_rooms (id) ON DELETE CASCADE,
        user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        first_joined_at INTEGER NOT NULL,
        last_joined_at  INTEGER NOT NULL,
        joins           INTEGER NOT NULL DEFAULT 1 CHECK (joins >= 1),
        present         INTEGER NOT NULL DEFAULT 1 CHECK (present IN (0, 1)),
        PRIMARY KEY (room_id, user_id)
      );

      -- A host's wishlist (SPEC §3 Live info wishlist), in the order set; progress is counted per room
      -- from gift_sends.
      CREATE TABLE host_wishlists (
        host_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        sort     INTEGER NOT NULL,
        gift_id  INTEGER NOT NULL REFERENCES gifts (id),
        gift_num INTEGER NOT NULL CHECK (gift_num > 0),
        PRIMARY KEY (host_id, gift_id)
      );

      -- A gift sent in a live room points at it (NULL: a gift outside live rooms).
      ALTER TABLE gift_sends ADD COLUMN live_room_id INTEGER REFERENCES live_rooms (id) ON DELETE SET NULL;
      CREATE INDEX gift_sends_live_room ON gift_sends (live_room_id, gift_id) WHERE live_room_id IS NOT NULL;
      CREATE INDEX gift_sends_live_host_time ON gift_sends (host_id, created_at) WHERE live_room_id IS NOT NULL;

      -- The live gift task's reward, paid at most once per host and UTC day (the key is what makes a
      -- second payment impossible). day is the day's first millisecond.
      CREATE TABLE live_gift_task_rewards (
        host_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        day     INTEGER NOT NULL,
        target  INTEGER NOT NULL,
        reward  INTEGER NOT NULL,
        paid_at INTEGER NOT NULL,
        PRIMARY KEY (host_id, day)
      );

      -- People the service gagged in every live room (SPEC §3 Live info whoBlock 1; 3 with a host gag).
      CREATE TABLE live_service_gags (
        user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'live rooms: the host\'s gags kept across a server restart',
    sql: `
      -- Viewers the host gagged in a live room (SPEC §3 Live info whoBlock 2): the hub's chat room
      -- holds them while it runs, and is opened again with them after a restart. An ended live's go.
      CREATE TABLE live_room_gags (
        live_room_id INTEGER NOT NULL REFERENCES live_rooms (id) ON DELETE CASCADE,
        user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at   INTEGER NOT NULL,
        PRIMARY KEY (live_room_id, user_id)
      );
    `,
  },
  {
    version: 8,
    name: 'sessions that end: an IM token per session, an expiry, Agora tokens bound to their session',
    sql: `
      -- The IM token (userInfo imToken) is random per sign-in and dies with its session: the hub's IM
      -- and chat-room logins check it against live sessions. The per-user token, derived from the
      -- account in the old seed, is no credential any more and goes.
      ALTER TABLE sessions ADD COLUMN im_token TEXT;
      -- Milliseconds since the epoch; a session past it is refused like a revoked one.
      ALTER TABLE sessions ADD COLUMN expires_at INTEGER;
      UPDATE sessions SET im_token = lower(hex(randomblob(16))),
                          expires_at = CAST(strftime('%s', created_at) AS INTEGER) * 1000 + 30 * 86400000;
      CREATE UNIQUE INDEX sessions_im_token ON sessions (im_token);
      -- The live sessions of a user, oldest first (the cap on sessions per user revokes from the front).
      CREATE INDEX sessions_user_live ON sessions (user_id, created_at) WHERE revoked_at IS NULL;
      ALTER TABLE users DROP COLUMN im_token;

      -- Agora tokens belong to the session that asked for them (revoked or expired with it). Tokens
      -- issued before this version had no session: they go, and the app asks again.
      DROP TABLE agora_tokens;
      CREATE TABLE agora_tokens (
        token         TEXT PRIMARY KEY,
        kind          TEXT NOT NULL CHECK (kind IN ('rtm', 'rtc')),
        user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        session_token TEXT NOT NULL REFERENCES sessions (token) ON DELETE CASCADE,
        expires_at    INTEGER NOT NULL
      );
      CREATE INDEX agora_tokens_user ON agora_tokens (user_id);
      CREATE INDEX agora_tokens_session ON agora_tokens (session_token);
    `,
  },
  {
    version: 9,
    name: 'idempotent money requests: the key and answer of each one that succeeded',
    sql: `
      -- A money request's client-made key (src/api/contract/idempotency.ts), stored with its answer in
      -- the transaction that moved the money: a replay gets the answer and moves nothing. fingerprint
      -- is the SHA-256 of the request without its key (the same key with another request is refused).
      -- Rows older than the window are purged (created_at, ms since the epoch).
      CREATE TABLE idempotency_keys (
        user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        endpoint    TEXT NOT NULL,
        key         TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        answer      TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (user_id, endpoint, key)
      ) WITHOUT ROWID;
      CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
    `,
  },
  {
    version: 10,
    name: 'upload quota per person and day',
    sql: `
      -- What each person stored through POST /api/upload on each UTC day (server/api/upload.quota.ts):
      -- kept here so that a restart does not hand out a fresh quota. Rows of past days are deleted.
      CREATE TABLE upload_quota (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        day     TEXT NOT NULL,
        files   INTEGER NOT NULL CHECK (files >= 0),
        bytes   INTEGER NOT NULL CHECK (bytes >= 0),
        PRIMARY KEY (user_id, day)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 11,
    name: 'money in: recharge packages and their channels, orders',
    sql: `
      -- /api/wallet/rechargeListV4 (SPEC §3 Recharge package group): a package and the ways to pay for it.
      -- country_type_id 0 is every country; price is the shown US-dollar price.
      CREATE TABLE recharge_packages (
        id                INTEGER PRIMARY KEY,
        batch_no          TEXT NOT NULL UNIQUE,
        price             TEXT NOT NULL,
        diamond_num       INTEGER NOT NULL CHECK (diamond_num > 0),
        give_diamond_num  INTEGER NOT NULL DEFAULT 0 CHECK (give_diamond_num >= 0),
        first_charge_give INTEGER NOT NULL DEFAULT 0 CHECK (first_charge_give >= 0),
        vip_flag          INTEGER NOT NULL DEFAULT 0 CHECK (vip_flag IN (0, 1)),
        sort              INTEGER NOT NULL
      );
      CREATE TABLE recharge_channels (
        id               INTEGER PRIMARY KEY,
        package_id       INTEGER NOT NULL REFERENCES recharge_packages (id) ON DELETE CASCADE,
        channel_type     TEXT NOT NULL,
        channel_id       INTEGER NOT NULL,
        country_type_id  INTEGER NOT NULL,
        product_id       TEXT NOT NULL,
        pay_method_type  TEXT NOT NULL CHECK (pay_method_type IN ('card', 'applepay', 'googlepay', 'PayPal', 'usdt')),
        recent_flag      INTEGER NOT NULL DEFAULT 0 CHECK (recent_flag IN (0, 1)),
        recommend_flag   INTEGER NOT NULL DEFAULT 0 CHECK (recommend_flag IN (0, 1)),
        icon             TEXT NOT NULL,
        sort             INTEGER NOT NULL,
        UNIQUE (package_id, channel_id, country_type_id)
      );

      -- An order (/api/fuse/v2/createOrder), credited once: status moves from 'pending' to 'paid' in the
      -- transaction that writes its wallet_flows entries (ref_id = id), and never back; 'expired' and
      -- 'failed' credit nothing. diamonds is what the order credits (package, gift, first recharge's gift).
      CREATE TABLE recharge_orders (
        id              INTEGER PRIMARY KEY,
        order_code      TEXT NOT NULL UNIQUE,
        user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        package_id      INTEGER NOT NULL REFERENCES recharge_packages (id),
        channel_row_id  INTEGER NOT NULL REFERENCES recharge_channels (id),
        pay_method_type TEXT NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'failed', 'expired')),
        vip_flag        INTEGER NOT NULL CHECK (vip_flag IN (0, 1)),
        -- Where a redirect payment comes back to (the app's own path, checked when the order is made).
        return_path     TEXT NOT NULL,
        chain_name      TEXT,
        usdt_address    TEXT,
        usdt_amount     TEXT,
        created_at      INTEGER NOT NULL,
        deadline        INTEGER,
        paid_at         INTEGER
      );
      CREATE INDEX recharge_orders_user ON recharge_orders (user_id, created_at DESC);
    `,
  },
  {
    version: 12,
    name: 'money out: collection methods, withdrawal password, withdrawals, withdrawal rules',
    sql: `
      -- A host's collection methods (/api/wallet/anchor/addWithdrawAccount): account_number is kept whole
      -- here and never sent back whole (machines/codes/withdraw.codes.ts maskAccount). normalised_number is
      -- what makes one method unique per host and kind (an e-wallet's email case-insensitively).
      CREATE TABLE withdraw_accounts (
        id                INTEGER PRIMARY KEY,
        host_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind              TEXT NOT NULL CHECK (kind IN ('bank', 'ewallet', 'usdt')),
        holder_name       TEXT NOT NULL,
        institution       TEXT NOT NULL,
        chain             TEXT NOT NULL,
        account_number    TEXT NOT NULL,
        normalised_number TEXT NOT NULL,
        created_at        INTEGER NOT NULL,
        UNIQUE (host_id, kind, normalised_number)
      );

      -- A host's withdrawal password (/api/wallet/setWithdrawPassWord): a scrypt hash with its own salt
      -- (server/auth/password.ts), the wrong attempts in a row, and until when withdrawals are locked.
      CREATE TABLE withdraw_passwords (
        host_id         INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        hash            TEXT NOT NULL,
        failed_attempts INTEGER NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
        locked_until    INTEGER NOT NULL DEFAULT 0,
        updated_at      INTEGER NOT NULL
      );

      -- A withdrawal (/api/wallet/applyWithdrawV2): its amount left wallets.income when it was applied
      -- (held while 'applied' or 'processing'); 'paid' ends it, 'refused' ends it and returns the amount
      -- once (the status moves by a conditional UPDATE in the transaction that writes the return's ledger
      -- entry). account_label is the method as shown then: it survives the method's removal.
      CREATE TABLE withdrawals (
        id            INTEGER PRIMARY KEY,
        host_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account_id    INTEGER REFERENCES withdraw_accounts (id) ON DELETE SET NULL,
        account_kind  TEXT NOT NULL CHECK (account_kind IN ('bank', 'ewallet', 'usdt')),
        account_label TEXT NOT NULL,
        amount        INTEGER NOT NULL CHECK (amount > 0),
        fee           INTEGER NOT NULL CHECK (fee >= 0),
        usd           TEXT NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('applied', 'processing', 'paid', 'refused')),
        reason        TEXT NOT NULL DEFAULT '',
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      );
      CREATE INDEX withdrawals_host ON withdrawals (host_id, id);

      -- The withdrawal rules (/api/wallet/getAnchorWithDrawConfig), one row: diamonds per withdrawal,
      -- the fee in percent, diamonds per US dollar, the ISO weekdays (UTC) open for applying, the kinds
      -- of collection method and the e-wallet providers offered (JSON arrays). An operator edits the row.
      CREATE TABLE withdraw_config (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        minimum     INTEGER NOT NULL CHECK (minimum > 0),
        maximum     INTEGER NOT NULL CHECK (maximum >= minimum),
        fee_percent REAL NOT NULL CHECK (fee_percent >= 0 AND fee_percent <= 100),
        rate        INTEGER NOT NULL CHECK (rate > 0),
        allowed_days TEXT NOT NULL,
        kinds       TEXT NOT NULL,
        providers   TEXT NOT NULL
      );
      INSERT INTO withdraw_config (id, minimum, maximum, fee_percent, rate, allowed_days, kinds, providers)
      VALUES (1, 1000, 100000, 5, 100, '[1,2,3,4,5,6,7]', '["bank","ewallet","usdt"]', '["PayPal","GCash","Paytm"]');
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
