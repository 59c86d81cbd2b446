/**
 * What a database starts with, in two parts:
 * - `seedReferenceData`: what the product needs to run at all, in production too: countries,
 *   tags, app config, gifts and their categories, banners, customer-service common problems,
 *   feedback types, and one customer-service IM account whose token is random (made once, when
 *   the account is created; the operator reads it from the database).
 * - `seed`: the deterministic development seed: the reference data, station messages, and the
 *   development accounts (public password, fixed customer-service IM token). Development only.
 *
 * Every seeded row is a pure function of its index, so two fresh databases seeded with the
 * same options are identical, and seeding again changes nothing (existing rows are kept, never
 * overwritten, including app_config values edited at run time). Raise `hosts` for load tests:
 * host ids are 100000 + i, up to 99 999 hosts.
 *
 * Dev accounts: host1@example.com … and user1@example.com …, all with SEED_PASSWORD. Their IM
 * tokens are those of their sessions (server/auth/sessions.ts), as everyone's. One
 * customer-service IM account (`customer_service`, an IM account only, not an app user) with
 * the fixed token CUSTOMER_SERVICE.imToken (development only: derived from public text).
 *
 * News and chat: twelve station messages to everyone and three system mails per seeded person,
 * customer-service common problems, feedback types, and wallets (users start with
 * 1000, 200, 50 or 0 diamonds in turn; hosts with none). Money out: every host has 6,019
 * diamonds of income from calls and gifts of past weeks (HOST_INCOME, ledger entries with no
 * call or gift behind them), so that the wallet and the dev shell's withdrawals have something
 * to show.
 *
 * Home and people: every person has an age, every host a call price (HOST_PRICES by index),
 * a country (by index, eight in all) and two tags (one child of each parent tag, by index);
 * banners of three picture types (same-origin SVGs, server/web/banners.ts); follows: each host
 * follows the next two hosts and each user the hosts of its own index and the next two
 * (wrapping), seeded once when the follower is created so that an unfollow stays undone. No
 * live rooms.
 *
 * Calls and gifts: the VIP call discount (app config `vip_call_discount`, 80: VIPs pay 80 % of a
 * host's price); fourteen gifts in three categories (Classic, Luxury, Fun) and six of them also
 * in 'Popular', listed first, with same-origin SVG pictures (server/web/gifts.ts).
 *
 * Live rooms: the live gift task (app config `live_gift_task`: 1000 diamonds a day, reward 100).
 */
import { createHash, randomBytes } from 'node:crypto';
import { VIP_CALL_DISCOUNT_KEY } from '../../src/api/contract/call';
import { POPULAR_CATEGORY } from '../../src/api/contract/gift';
import { LIVE_GIFT_TASK_DEFAULT, LIVE_GIFT_TASK_KEY } from '../../src/api/contract/live';
import { AppPicType, BaseConfigKey } from '../../src/api/contract/home';
import { MailType } from '../../src/api/contract/news';
import { TRANSLATOR_LOCAL_PATH } from '../../src/api/contract/translator';
import { CallFlowReason } from '../api/billing';
import { hashPasswordSync, type ScryptCost } from '../auth/password';
import { insertUser, yxAccidFor, type NewUser } from '../users/users';
import { avatarUrl } from '../web/avatars';
import { BANNERS, bannerUrl, type BannerName } from '../web/banners';
import { GIFT_PICTURES, type GiftPicture } from '../web/gifts';
import { payIconUrl } from '../web/pay-icons';
import type { Db } from './database';
import { UserType } from '../../machines/codes/user.codes';

/** The one documented password of every seeded account. */
export const SEED_PASSWORD = 'password1';

export interface SeedOptions {
  /** Number of hosts (userType 2); default 6. */
  hosts?: number;
  /** Number of normal users (userType 1); default 4. */
  users?: number;
}

const HOST_ID_BASE = 100_000;
const USER_ID_BASE = 200_000;
/**
 * The one seeded customer-service IM account (SPEC §7 /api/im/getCustomerServiceList). Its
 * token here is the development seed's, derived from public text; the reference data of a
 * production database gives the same account a random one.
 */
export const CUSTOMER_SERVICE = {
  yxAccid: yxAccidFor('service:customer-service-1'),
  imToken: createHash('sha256').update('seed:im:customer-service-1').digest('hex').slice(0, 32),
  nickname: 'Customer Service',
  icon: avatarUrl('customer-service'),
} as const;
const MAX_PER_KIND = USER_ID_BASE - HOST_ID_BASE - 1;

/** Fixed so that the seed is reproducible; sign-ups use the real time. */
const SEEDED_AT = Date.UTC(2025, 0, 1);
const DAY_MS = 86_400_000;

/**
 * The seed's password is public, so it is hashed at a lower cost than sign-ups: this keeps
 * seeding a thousand hosts to about a second. Verification reads the cost from the hash.
 */
const SEED_COST: ScryptCost = { N: 1024, r: 8, p: 1 };

const COUNTRIES = [
  [1, 'United States', 'US'], [2, 'Philippines', 'PH'], [3, 'Brazil', 'BR'], [4, 'Colombia', 'CO'],
  [5, 'India', 'IN'], [6, 'Vietnam', 'VN'], [7, 'Indonesia', 'ID'], [8, 'Ukraine', 'UA'],
] as const;

/** Parent tags and their children; the home tabs are the children of the first parent (SPEC §2 Home). */
const TAGS = [
  { id: 1, name: 'Recommend', children: [[11, 'New'], [12, 'Popular'], [13, 'Nearby']] },
  { id: 2, name: 'Interests', children: [[21, 'Music'], [22, 'Dance'], [23, 'Travel'], [24, 'Games']] },
] as const;

/** SPEC §3 app config keys; `achor_hide_button` lists the host levels allowed to take calls (SPEC §5). */
const APP_CONFIG: Readonly<Record<string, string>> = {
  achor_hide_button: '1,2,3,4,5',
  prime_achor_can_call: '1',
  // Points at the server's own stand-in (server/api/translator.ts), which checks this key and region.
  microsoft_translator_config: JSON.stringify({ key: 'dev-translator-key', region: 'local', endpoint: TRANSLATOR_LOCAL_PATH }),
  max_no_use_app_reminder_time: '1',
  // SPEC §3 Base config (businessConfig.enabled and nonPaidUserCount).
  [BaseConfigKey.enabled]: '1',
  [BaseConfigKey.nonPaidUserCount]: '3',
  // SPEC §3 VIP shop callDiscount / §6: VIPs pay floor(price × 80 / 100); the app shows 20 % off.
  [VIP_CALL_DISCOUNT_KEY]: '80',
  // The live gift task (src/api/contract/live.ts): diamonds of live gifts a host receives in a day, and the reward.
  [LIVE_GIFT_TASK_KEY]: JSON.stringify(LIVE_GIFT_TASK_DEFAULT),
};

/**
 * Recharge packages (SPEC §3 Recharge package group): [batchNo, price, diamonds, giveDiamondNum,
 * firstChargeGive, vip], in display order. Every package is paid by card and PayPal everywhere,
 * by the stores, and by USDT; the US and the Philippines have a local card channel of their own,
 * so a card payment there opens the picker.
 */
export const RECHARGE_PACKAGES = [
  ['P100', '0.99', 100, 0, 20, false],
  ['P550', '4.99', 500, 50, 100, false],
  ['P1200', '9.99', 1000, 200, 200, false],
  ['P2600', '19.99', 2000, 600, 400, false],
  ['P7000', '49.99', 5000, 2000, 1000, false],
  ['VIP30', '9.99', 300, 0, 0, true],
] as const;

/** [payMethodType, channelType, channelId, countryTypeId (0 every country), recommended]. */
export const RECHARGE_CHANNELS = [
  ['card', 'awx', 11, 0, true],
  ['card', 'stripe-us', 12, 1, false],
  ['card', 'gcash-ph', 13, 2, false],
  ['PayPal', 'paypal', 21, 0, false],
  ['googlepay', 'store', 31, 0, false],
  ['applepay', 'store', 32, 0, false],
  ['usdt', 'usdt', 41, 0, false],
] as const;

/** Gift categories in display order; Popular (SPEC §2 gift popup) first. */
const GIFT_CATEGORIES = [[1, POPULAR_CATEGORY], [2, 'Classic'], [3, 'Luxury'], [4, 'Fun']] as const;
type GiftCategoryId = (typeof GIFT_CATEGORIES)[number][0];

/** Gifts: [id, picture (and name), price in diamonds, own category, also in Popular]. */
const GIFTS: readonly (readonly [number, GiftPicture, number, GiftCategoryId, boolean])[] = [
  [1, 'rose', 1, 2, true],
  [2, 'heart', 5, 2, true],
  [3, 'kiss', 10, 2, false],
  [4, 'chocolate', 30, 2, false],
  [5, 'teddy', 99, 2, true],
  [6, 'lollipop', 20, 4, true],
  [7, 'star', 50, 4, false],
  [8, 'rocket', 2999, 4, true],
  [9, 'fireworks', 9999, 4, false],
  [10, 'perfume', 199, 3, false],
  [11, 'ring', 520, 3, true],
  [12, 'crown', 999, 3, false],
  [13, 'diamond', 1314, 3, false],
  [14, 'castle', 5200, 3, false],
];

/** App pictures (/api/index/v2/getAppPicByType): [type, banner, link]. */
const APP_PICS: readonly (readonly [AppPicType, BannerName, string | null])[] = [
  [AppPicType.homeBanner, 'invite-friends', '/invite'],
  [AppPicType.homeBanner, 'top-hosts', '/rank'],
  [AppPicType.homeBanner, 'daily-tasks', '/dailyTask'],
  [AppPicType.liveBanner, 'go-live', '/liveSetting'],
  [AppPicType.liveBanner, 'live-gifts', null],
  [AppPicType.mineBanner, 'vip-club', '/wallet'],
];

/** Call prices of hosts (diamonds per minute), in turn. */
const HOST_PRICES = [30, 40, 50, 60, 80, 100] as const;
/** Follows of each seeded follower: hosts follow this many next hosts; users follow their own and this many next. */
const FOLLOWS_PER_HOST = 2;
const FOLLOWS_PER_USER = 3;

/** Station messages (SPEC §2 message/stationMsg): platform notices to everyone, oldest first. */
const STATION_MESSAGES = [
  ['Community guidelines', 'Be kind and respectful. Harassment, nudity and scams lead to a permanent ban.'],
  ['Scheduled maintenance', 'The service will be briefly unavailable on Sunday from 02:00 to 02:30 UTC.'],
  ['New: secret messages', 'Hosts can now send secret messages: pictures and videos that open for a few diamonds.'],
] as const;

/**
 * Older station messages, from the weeks before the seed's first day (newest last), so that
 * the station list has more than one page of 10 (SPEC §9 paging).
 */
const STATION_ARCHIVE = [
  ['Welcome to the app', 'Meet hosts from around the world in one-to-one video calls and live rooms.'],
  ['How diamonds work', 'Diamonds pay for calls, gifts and secret messages. Recharge them in the wallet.'],
  ['Verified hosts', 'A badge on a profile means the host passed our photo and video review.'],
  ['Gifts in live rooms', 'Send a gift to a host during a live stream; it shows for everyone in the room.'],
  ['VIP membership', 'VIP members get a discount on every call and can pin up to five chats.'],
  ['Report and block', 'Open a chat or a profile to report or block someone. We review every report.'],
  ['Holiday events', 'Special gifts and rankings run during the holidays. Watch the banner on the home page.'],
  ['Payment methods', 'Pay by card, Apple Pay, Google Pay, PayPal or USDT, depending on your country.'],
  ['Call quality tips', 'A steady Wi-Fi connection and good light make calls clearer for both sides.'],
] as const;

/** Three system mails (SPEC §2 message/systemMsg) per seeded person, by kind. */
const SYSTEM_MAIL: Readonly<Record<'host' | 'user', readonly (readonly [string, string])[]>> = {
  host: [
    ['Welcome, {name}!', 'Your host account is ready. Complete your profile and go online to receive calls.'],
    ['Profile approved', 'Your photos and video passed review and are now visible to users.'],
    ['Weekly report', 'Your weekly call and gift income is available in your wallet.'],
  ],
  user: [
    ['Welcome, {name}!', 'Thanks for joining. Find a host you like and say hi.'],
    ['First recharge bonus', 'Your first recharge comes with extra diamonds. Open the wallet to see the offers.'],
    ['Stay safe', 'Never share passwords or payment details in chat. Customer service will never ask for them.'],
  ],
};

/** Common problems of /customer-talk: [audience (0 everyone, else the userType), problem, reply]. */
const CUSTOMER_PROBLEMS = [
  [0, 'How do I recharge diamonds?', 'Open Mine, then Wallet, choose a package and a payment method.'],
  [0, 'I paid but did not get my diamonds.', 'Diamonds usually arrive within a minute. If not, send us the order number here.'],
  [0, 'How do I block someone?', 'Open the chat with the person, tap the menu and choose Block. You can undo it in Settings, Blacklist.'],
  [1, 'How is a call billed?', 'Calls are billed per started minute at the host\'s price; VIP members get a discount.'],
  [2, 'Why can\'t I receive calls?', 'Stay online in the app and keep the beauty camera set up; your host level must allow calls.'],
  [2, 'How do I withdraw my income?', 'Open Wallet, add a collection method, then apply for a withdrawal.'],
] as const;

const FEEDBACK_TYPES = ['Call quality', 'Payment or recharge', 'Account or login', 'Report a user', 'Suggestion', 'Other'];

/** Each host's seeded income (diamonds), oldest first, an hour apart from the fifth seeded day: [reason, amount]. */
const HOST_INCOME = [
  [CallFlowReason.callIncome, 1800],
  [CallFlowReason.giftIncome, 999],
  [CallFlowReason.callIncome, 1500],
  [CallFlowReason.giftIncome, 520],
  [CallFlowReason.callIncome, 1200],
] as const;
const HOUR_MS = 3_600_000;

/** Starting diamonds of seeded users, in turn (user1, user2, …); hosts start with none. */
const USER_DIAMONDS = [1000, 200, 50, 0] as const;

const HOST_NAMES = ['Sofia', 'Amara', 'Lina', 'Mei', 'Valentina', 'Aisha', 'Yuki', 'Camila', 'Nadia', 'Elena'];
const USER_NAMES = ['Alex', 'Ben', 'Chris', 'Dan', 'Eli', 'Finn'];

const pick = <T>(list: readonly T[], i: number): T => list[(i - 1) % list.length]!;

/** 'Sofia', …, 'Elena', then 'Sofia 2', … */
function nameFor(names: readonly string[], i: number): string {
  const round = Math.ceil(i / names.length);
  return round === 1 ? pick(names, i) : `${pick(names, i)} ${round}`;
}

type Kind = 'host' | 'user';

const idOf = (kind: Kind, i: number) => (kind === 'host' ? HOST_ID_BASE : USER_ID_BASE) + i;
const accountOf = (kind: Kind, i: number) => `${kind}${i}@example.com`;

function seededUser(kind: Kind, i: number): NewUser {
  const account = accountOf(kind, i);
  const digest = (label: string) => createHash('sha256').update(`seed:${label}:${account}`).digest();
  const isHost = kind === 'host';
  return {
    id: idOf(kind, i),
    account,
    password_hash: hashPasswordSync(SEED_PASSWORD, digest('salt').subarray(0, 16), SEED_COST),
    nickname: nameFor(isHost ? HOST_NAMES : USER_NAMES, i),
    user_type: isHost ? UserType.host : UserType.user,
    is_visitor: 0,
    // Hosts cycle through levels 1–5 and every sixth is level 0, outside achor_hide_button.
    user_level: isHost ? i % 6 : (i - 1) % 4,
    country_id: pick(COUNTRIES, isHost ? i : i + 3)[0],
    icon: avatarUrl(`${kind}${i}`),
    yx_accid: yxAccidFor(`account:${account}`),
    is_new_user: i % 3 === 0 ? 1 : 0,
    is_vip: !isHost && i % 2 === 0 ? 1 : 0,
    device_id: null,
    // Hosts on the first seeded day, users on the second, one second apart.
    created_at: new Date(SEEDED_AT + (isHost ? 0 : DAY_MS) + i * 1000).toISOString(),
    ...seededProfile(kind, i),
  };
}

/** Age of everyone (hosts 19–32, users 20–44) and the call price of hosts (users have none). */
function seededProfile(kind: Kind, i: number): { age: number; video_price: number | null } {
  return kind === 'host'
    ? { age: 19 + ((i * 7) % 14), video_price: pick(HOST_PRICES, i) }
    : { age: 20 + ((i * 5) % 25), video_price: null };
}

/** The seeded follows of a follower: host i follows hosts i+1, i+2; user i follows hosts i, i+1, i+2 (wrapping). */
function seededFollows(kind: Kind, i: number, hosts: number): number[] {
  const n = kind === 'host' ? FOLLOWS_PER_HOST : FOLLOWS_PER_USER;
  const first = kind === 'host' ? i + 1 : i;
  const out = new Set<number>();
  for (let k = 0; k < n && hosts > 0; k++) {
    const j = ((first + k - 1) % hosts) + 1;
    if (!(kind === 'host' && j === i)) out.add(idOf('host', j));
  }
  return [...out];
}

/** A host's picList: two or three pictures, then one video (its URL is a poster placeholder). */
function hostMedia(i: number): { sort: number; media_type: 1 | 2; media_url: string }[] {
  const pictures = 2 + (i % 2);
  return [
    ...Array.from({ length: pictures }, (_, k) => ({
      sort: k + 1, media_type: 1 as const, media_url: avatarUrl(`host${i}-${k + 1}`),
    })),
    { sort: pictures + 1, media_type: 2, media_url: avatarUrl(`host${i}-video`) },
  ];
}

function hostTags(i: number): number[] {
  const [recommend, interests] = TAGS;
  return [pick(recommend.children, i)[0], pick(interests.children, i)[0]];
}

const ignoring = (db: Db) => (sql: string) => db.prepare(`INSERT INTO ${sql} ON CONFLICT DO NOTHING`);

/**
 * The rows the product needs to run, in production too (no people, no messages). A
 * customer-service account is created with `serviceImToken` (default: random) when it does
 * not exist yet; an existing one keeps its token.
 */
export function seedReferenceData(db: Db, { serviceImToken }: { serviceImToken?: string } = {}): void {
  const ignore = ignoring(db);
  const country = ignore('countries (id, name, code) VALUES (?, ?, ?)');
  const tag = ignore('tags (id, parent_id, name) VALUES (?, ?, ?)');
  const config = ignore('app_config (key, value) VALUES (?, ?)');
  const serviceAccount = ignore('customer_service (yx_accid, im_token, nickname, icon, sort) VALUES (?, ?, ?, ?, ?)');
  const problem = ignore('customer_problems (id, audience, sort, problem, reply) VALUES (?, ?, ?, ?, ?)');
  const feedbackType = ignore('feedback_types (id, name, sort) VALUES (?, ?, ?)');
  const appPic = ignore('app_pics (pic_type, sort, title, pic_url, link_url, seed_key) VALUES (?, ?, ?, ?, ?, ?)');
  const giftCategory = ignore('gift_categories (id, name, sort) VALUES (?, ?, ?)');
  const gift = ignore('gifts (id, name, price, img_key, sort) VALUES (?, ?, ?, ?, ?)');
  const giftInCategory = ignore('gift_category_items (category_id, gift_id, sort) VALUES (?, ?, ?)');
  const rechargePackage = ignore(
    'recharge_packages (id, batch_no, price, diamond_num, give_diamond_num, first_charge_give, vip_flag, sort) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const rechargeChannel = ignore(
    `recharge_channels (package_id, channel_type, channel_id, country_type_id, product_id, pay_method_type, recent_flag, recommend_flag, icon, sort)
     VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
  );

  db.transaction(() => {
    for (const row of COUNTRIES) country.run(...row);
    for (const parent of TAGS) {
      tag.run(parent.id, null, parent.name);
      for (const [id, name] of parent.children) tag.run(id, parent.id, name);
    }
    for (const [key, value] of Object.entries(APP_CONFIG)) config.run(key, value);
    CUSTOMER_PROBLEMS.forEach(([audience, text, reply], k) => problem.run(k + 1, audience, k + 1, text, reply));
    FEEDBACK_TYPES.forEach((name, k) => feedbackType.run(k + 1, name, k + 1));
    APP_PICS.forEach(([type, banner, link], k) => {
      appPic.run(type, k + 1, BANNERS[banner][0], bannerUrl(banner), link, `pic:${banner}`);
    });
    GIFT_CATEGORIES.forEach(([id, name], k) => giftCategory.run(id, name, k + 1));
    const popular = GIFT_CATEGORIES[0][0];
    GIFTS.forEach(([id, key, price, category, isPopular], k) => {
      gift.run(id, GIFT_PICTURES[key][0], price, key, k + 1);
      giftInCategory.run(category, id, k + 1);
      if (isPopular) giftInCategory.run(popular, id, k + 1);
    });
    RECHARGE_PACKAGES.forEach(([batchNo, price, diamonds, give, firstGive, vip], k) => {
      rechargePackage.run(k + 1, batchNo, price, diamonds, give, firstGive, vip ? 1 : 0, k + 1);
      RECHARGE_CHANNELS.forEach(([method, type, channelId, country, recommended], c) => {
        rechargeChannel.run(k + 1, type, channelId, country, `${batchNo}.${type}`, method, recommended ? 1 : 0, payIconUrl(method), c + 1);
      });
    });
    const cs = CUSTOMER_SERVICE;
    serviceAccount.run(cs.yxAccid, serviceImToken ?? randomBytes(16).toString('hex'), cs.nickname, cs.icon, 1);
  })();
}

/** The development seed: the reference data (with the fixed customer-service token), station messages and the dev accounts. */
export function seed(db: Db, { hosts = 6, users = 4 }: SeedOptions = {}): void {
  for (const n of [hosts, users]) {
    if (!Number.isInteger(n) || n < 0 || n > MAX_PER_KIND) throw new RangeError(`Seed counts must be 0…${MAX_PER_KIND}.`);
  }
  const ignore = ignoring(db);
  const media = ignore('user_media (user_id, sort, media_type, media_url) VALUES (?, ?, ?, ?)');
  const userTag = ignore('user_tags (user_id, tag_id) VALUES (?, ?)');
  const mail = ignore('sys_mail (user_id, mail_type, title, content, created_at, seed_key) VALUES (?, ?, ?, ?, ?, ?)');
  const wallet = ignore('wallets (user_id, diamonds, income) VALUES (?, ?, 0)');
  // A seeded balance is the ledger's opening entry: every balance is the sum of its wallet_flows.
  const opening = db.prepare(
    "INSERT INTO wallet_flows (user_id, account, amount, balance, reason, ref_id, created_at) VALUES (?, 'diamonds', ?, ?, 'seed.opening', NULL, ?)",
  );
  const follow = ignore('user_follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)');
  // Fills what a database seeded before migration 4 lacks; a value set since is kept.
  const fillProfile = db.prepare<{ id: number; age: number; video_price: number | null }>(
    `UPDATE users SET age = coalesce(age, @age), video_price = coalesce(video_price, @video_price)
      WHERE id = @id AND (age IS NULL OR (video_price IS NULL AND @video_price IS NOT NULL))`,
  );
  const userById = db.prepare<[number], 1>('SELECT 1 FROM users WHERE id = ?').pluck();
  // A host's income is seeded once: its first entry (at a fixed time) says it was.
  const incomeSeeded = db.prepare<[number, number], 1>(
    "SELECT 1 FROM wallet_flows WHERE user_id = ? AND account = 'income' AND ref_id IS NULL AND created_at = ?",
  ).pluck();
  const addIncome = db.prepare<[number, number], number>('UPDATE wallets SET income = income + ? WHERE user_id = ? RETURNING income').pluck();
  const incomeFlow = db.prepare(
    "INSERT INTO wallet_flows (user_id, account, amount, balance, reason, ref_id, created_at) VALUES (?, 'income', ?, ?, ?, NULL, ?)",
  );
  const userByAccount = db.prepare<[string], 1>('SELECT 1 FROM users WHERE account = ?').pluck();

  db.transaction(() => {
    seedReferenceData(db, { serviceImToken: CUSTOMER_SERVICE.imToken });
    STATION_MESSAGES.forEach(([title, content], k) => {
      mail.run(null, MailType.station, title, content, SEEDED_AT + k * DAY_MS, `station:${k + 1}`);
    });
    STATION_ARCHIVE.forEach(([title, content], k) => {
      const at = SEEDED_AT - (STATION_ARCHIVE.length - k) * 7 * DAY_MS;
      mail.run(null, MailType.station, title, content, at, `station-archive:${k + 1}`);
    });

    /** The seeded user's id and whether it is new; undefined when someone signed up with its account first. */
    const addUser = (kind: Kind, i: number): { id: number; created: boolean } | undefined => {
      const id = idOf(kind, i);
      if (userById.get(id)) {
        fillProfile.run({ id, ...seededProfile(kind, i) });
        return { id, created: false };
      }
      if (userByAccount.get(accountOf(kind, i))) return undefined;
      // Only new rows are built, because hashing the password is the costly part of a seed.
      return { id: insertUser(db, seededUser(kind, i)), created: true };
    };
    /** Seeded once, with the follower, so that a follow undone at run time is not seeded again. */
    const addFollows = (kind: Kind, i: number, id: number) => {
      seededFollows(kind, i, hosts).forEach((followee, k) => {
        const at = SEEDED_AT + (kind === 'host' ? 2 : 3) * DAY_MS + i * 1000 + k;
        if (userById.get(followee)) follow.run(id, followee, at);
      });
    };
    /** The seeded person's wallet and system mail, a day after the station messages began. */
    const addNews = (kind: Kind, i: number, id: number) => {
      const diamonds = kind === 'host' ? 0 : pick(USER_DIAMONDS, i);
      if (wallet.run(id, diamonds).changes > 0 && diamonds > 0) opening.run(id, diamonds, diamonds, Date.now());
      const name = nameFor(kind === 'host' ? HOST_NAMES : USER_NAMES, i);
      SYSTEM_MAIL[kind].forEach(([title, content], k) => {
        const at = SEEDED_AT + (k + 1) * DAY_MS + i * 1000;
        mail.run(id, MailType.system, title.replace('{name}', name), content, at, `system:${kind}${i}:${k + 1}`);
      });
    };
    const added: [Kind, number, number][] = [];
    for (let i = 1; i <= hosts; i++) {
      const user = addUser('host', i);
      if (user === undefined) continue;
      const { id } = user;
      for (const m of hostMedia(i)) media.run(id, m.sort, m.media_type, m.media_url);
      for (const tagId of hostTags(i)) userTag.run(id, tagId);
      addNews('host', i, id);
      if (user.created) added.push(['host', i, id]);
    }
    // Something to withdraw in development: every host's income of past weeks, entry by entry on the ledger.
    const incomeAt = (k: number) => SEEDED_AT + 4 * DAY_MS + k * HOUR_MS;
    for (let i = 1; i <= hosts; i++) {
      const host = idOf('host', i);
      if (!userById.get(host) || incomeSeeded.get(host, incomeAt(0))) continue;
      HOST_INCOME.forEach(([reason, amount], k) => {
        const balance = addIncome.get(amount, host);
        if (balance !== undefined) incomeFlow.run(host, amount, balance, reason, incomeAt(k));
      });
    }
    for (let i = 1; i <= users; i++) {
      const user = addUser('user', i);
      if (user === undefined) continue;
      addNews('user', i, user.id);
      if (user.created) added.push(['user', i, user.id]);
    }
    // After every host exists, so that a host's follows of later hosts are there to make.
    for (const [kind, i, id] of added) addFollows(kind, i, id);
  })();
}
