/**
 * The News area's lookups (SPEC §2 /news message/systemMsg and message/stationMsg, §3 Chat
 * session and User profile, §7 /api/sysmail/loadList and /api/anchor/batchQueryYxStat[ByUid]).
 *
 * SPEC §7 names one mail endpoint and no station-message endpoint: system mail (addressed to
 * one person) and station messages (platform notices addressed to everyone) are both rows of
 * the one mail list, told apart by `mailType`; the optional `mailType` filter of the request
 * gives either view its own list.
 */
import * as z from 'zod/mini';
import { ImageUrl, defineEndpoint } from './endpoint';

/** SPEC §9: lookups in groups of 100; a larger batch is refused (code 1000 with TEXT_TOO_MANY_IDS). */
export const MAX_BATCH_IDS = 100;
/** Hard cap of the request schema; anything between MAX_BATCH_IDS and this gets the clear refusal above. */
export const BATCH_IDS_HARD_CAP = 1000;
export const TEXT_TOO_MANY_IDS = `At most ${MAX_BATCH_IDS} ids per lookup.`;

/** Largest page of the mail list. */
export const MAX_MAIL_PAGE_SIZE = 100;

export const MailType = {
  /** System mail: addressed to one person (message/systemMsg). */
  system: 1,
  /** Station message: a platform notice addressed to everyone (message/stationMsg). */
  station: 2,
} as const;
export type MailType = (typeof MailType)[keyof typeof MailType];

const mailType = z.union([z.literal(MailType.system), z.literal(MailType.station)]);

export const SysMail = z.object({
  id: z.number(),
  mailType,
  title: z.string(),
  content: z.string(),
  /** Milliseconds since the epoch. */
  createTime: z.number(),
});
export type SysMail = z.output<typeof SysMail>;

/** SPEC §7 /api/sysmail/loadList {currentPage, pageSize}: newest first; a page shorter than pageSize is the last. */
export const loadList = defineEndpoint({
  path: '/api/sysmail/loadList',
  method: 'POST',
  auth: 'session',
  visitors: 'allowed',
  request: z.object({
    currentPage: z.int().check(z.minimum(1), z.maximum(1_000_000)),
    pageSize: z.int().check(z.minimum(1), z.maximum(MAX_MAIL_PAGE_SIZE)),
    /** Reference-server addition: only this kind (absent: both). */
    mailType: z.optional(mailType),
  }),
  response: z.object({
    list: z.array(SysMail),
    total: z.number(),
    currentPage: z.number(),
    pageSize: z.number(),
  }),
});

/**
 * SPEC §3 Chat session "online status (default 3 = offline)": the value of `onlineGroupStatus`.
 * The reference server maps the presence codes of SPEC §4 onto it: foreground and call end
 * are online, calling is busy, offline, background and never connected are offline.
 */
export const OnlineGroupStatus = { online: 1, busy: 2, offline: 3 } as const;
export type OnlineGroupStatus = (typeof OnlineGroupStatus)[keyof typeof OnlineGroupStatus];

/** SPEC §3 User profile: one entry of a batch lookup. */
export const YxStat = z.object({
  userId: z.number(),
  yxAccid: z.string(),
  onlineGroupStatus: z.union([
    z.literal(OnlineGroupStatus.online), z.literal(OnlineGroupStatus.busy), z.literal(OnlineGroupStatus.offline),
  ]),
  nickname: z.string(),
  /** Avatar. */
  icon: ImageUrl,
  userType: z.number(),
  userLevel: z.number(),
  isVip: z.boolean(),
  /** Whether the caller has blocked this user (/api/user/blockUser). */
  isBlockUser: z.boolean(),
  /** Whether the person is live now (as PersonSummary.living: a live room on air). */
  living: z._default(z.boolean(), false),
});
export type YxStat = z.output<typeof YxStat>;

const accid = z.string().check(z.minLength(1), z.maxLength(64));
const ids = <T extends z.ZodMiniType>(item: T) => z.array(item).check(z.minLength(1), z.maxLength(BATCH_IDS_HARD_CAP));

/**
 * SPEC §7 /api/anchor/batchQueryYxStat: profiles and online status by IM account (a chat
 * session's `to`). Keyed by yxAccid; an account that is not an app user (customer service,
 * unknown) is left out, so the client keeps its default 3.
 */
export const batchQueryYxStat = defineEndpoint({
  path: '/api/anchor/batchQueryYxStat',
  method: 'POST',
  auth: 'session',
  request: z.object({ yxAccids: ids(accid) }),
  response: z.record(z.string(), YxStat),
});

/** SPEC §7 /api/anchor/batchQueryYxStatByUid: the same by user id, keyed by the id (as a JSON key). */
export const batchQueryYxStatByUid = defineEndpoint({
  path: '/api/anchor/batchQueryYxStatByUid',
  method: 'POST',
  auth: 'session',
  request: z.object({ userIds: ids(z.int().check(z.minimum(1))) }),
  response: z.record(z.string(), YxStat),
});
