/**
 * People: another person's profile, following, the follow lists, editing one's own profile
 * and a host's list of users (SPEC §2 /userProfile, /profile, /followList; §3 User profile,
 * Current user; §4 system message -4; §7 Users and home: /api/index/getUserDetail,
 * /api/anchor/checkUserInfo, /api/user/followUser, updateUserInfo, anchorGetUserList).
 *
 * SPEC §7 names these paths but no shapes; the field names below are the reference server's
 * choices, following the SPEC's words where it has them (beCallUserId → beFollowUserId,
 * onlineGroupStatus, picList with mediaType 1 picture / 2 video, levelName, isVip). The follow
 * list has no path in SPEC §7: `/api/user/followList` is the reference server's.
 *
 * Refusals the client shows as they come (SPEC §8 "other codes: message as warning toast")
 * are code 1000 with one of the TEXT_ messages; a person who is not an app user is SPEC §8's
 * 'no.match.user'. Paged lists answer `{ list, total, currentPage, pageSize }`, and a page
 * shorter than pageSize is the last (SPEC §4 Home list paging).
 */
import * as z from 'zod/mini';
import { Empty, ImageUrl, bodyLimitFor, defineEndpoint } from './endpoint';
import { OnlineGroupStatus } from './news';
import { MEDIA_URL_MAX } from './media';
import { MediaItem, MineInfo } from './session';

/** Largest page of the people lists. */
export const MAX_PEOPLE_PAGE_SIZE = 100;
/** SPEC §3 Current user picList: at most this many pictures and videos in all. */
export const PIC_LIST_MAX = 9;
/** Nickname length in characters (code points, after trimming); the same limit as sign-up's. */
export const NICKNAME_MAX = 24;

export const TEXT_CANNOT_FOLLOW_SELF = 'You cannot follow yourself.';
export const TEXT_NICKNAME_EMPTY = 'Please enter a nickname.';
export const TEXT_NICKNAME_TOO_LONG = `A nickname can be at most ${NICKNAME_MAX} characters.`;
export const TEXT_NICKNAME_INVALID = 'A nickname cannot contain line breaks or control characters.';
export const TEXT_MEDIA_URL_INVALID = 'Pictures and videos must be uploaded files or https links to an approved media server.';
export const TEXT_PIC_LIST_TOO_LONG = `At most ${PIC_LIST_MAX} pictures and videos.`;
export const TEXT_NOTHING_TO_UPDATE = 'Nothing to update.';
export const TEXT_HOSTS_ONLY = 'Only hosts can see the user list.';

/**
 * `onlineStatus` of the people lists (the home list's getIndexListOption, SPEC §3 Home tab):
 * 0 everyone, online first; 1 online or busy (online first); 2 busy only; 3 offline only.
 * The All tab asks for 1 with `currentPage`, then its 'more offline anchors' expansion asks for
 * 3 with its own page number (the Home tab's `moreCurrentPage`).
 */
export const OnlineStatusFilter = { all: 0, onlineOrBusy: 1, busy: 2, offline: 3 } as const;
export type OnlineStatusFilter = (typeof OnlineStatusFilter)[keyof typeof OnlineStatusFilter];
export const onlineStatusFilter = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);

export const onlineGroupStatus = z.union([
  z.literal(OnlineGroupStatus.online), z.literal(OnlineGroupStatus.busy), z.literal(OnlineGroupStatus.offline),
]);

export const currentPage = z.int().check(z.minimum(1), z.maximum(1_000_000));
export const pageSize = (max: number) => z.int().check(z.minimum(1), z.maximum(max));

/** A paged list of `item`. */
export const Page = <T extends z.ZodMiniType>(item: T) => z.object({
  list: z.array(item),
  /** How many match now (the list may change between pages). */
  total: z.number(),
  currentPage: z.number(),
  pageSize: z.number(),
});

export const TagRef = z.object({ id: z.number(), tagName: z.string() });
export type TagRef = z.output<typeof TagRef>;

/** A person as lists and cards show them. */
export const PersonSummary = z.object({
  userId: z.number(),
  yxAccid: z.string(),
  nickname: z.string(),
  icon: ImageUrl,
  /** SPEC §3 userType: 2 host, 1 user. */
  userType: z.number(),
  userLevel: z.number(),
  /** 'Lv.3' */
  levelName: z.string(),
  /** Null when not given. */
  age: z.nullable(z.number()),
  countryId: z.nullable(z.number()),
  countryName: z.nullable(z.string()),
  /** ISO 3166 alpha-2 code: the flag to show ('PH'). */
  countryCode: z.nullable(z.string()),
  isVip: z.boolean(),
  /** From the hub's presence: 1 online, 2 busy (in a call), 3 offline (the default). */
  onlineGroupStatus,
  /** Whether the caller follows this person. */
  isFollowed: z.boolean(),
  /**
   * Whether the person is live now: a host with a live room on air (SPEC §3 Live info
   * liveRoomState 0, §4 Live state living), whose room getRoomAndJoinRoom opens by user id.
   * Absent reads as not live, so a server that does not say so is still understood.
   */
  living: z._default(z.boolean(), false),
});
export type PersonSummary = z.output<typeof PersonSummary>;

const userId = z.optional(z.int().check(z.minimum(1)));
const yxAccid = z.optional(z.string().check(z.minLength(1), z.maxLength(64)));
/** Exactly one of the two (the talk screen knows a person by IM account only). */
const exactlyOne = (a: string, b: string) => z.refine(
  (t: unknown) => {
    const o = t as Record<string, unknown>;
    return (o[a] === undefined) !== (o[b] === undefined);
  },
  { message: `Give exactly one of ${a} and ${b}.` },
);

/** Another person's profile (SPEC §3 User profile, /userProfile). */
export const UserDetail = z.extend(PersonSummary, {
  /** A host's call price, diamonds per minute (0 for users). */
  videoPrice: z.number(),
  tags: z.array(TagRef),
  /** Pictures (mediaType 1) and videos (2) in the person's order. */
  picList: z.array(MediaItem),
  /** Whether the caller blocked this person (as YxStat.isBlockUser; /api/user/blockUser). */
  isBlockUser: z.boolean(),
  followerCount: z.number(),
  followingCount: z.number(),
});
export type UserDetail = z.output<typeof UserDetail>;

/**
 * SPEC §7 /api/index/getUserDetail: anyone's profile, the caller's own included (that is
 * where the caller's follower counts come from). Unknown: 'no.match.user'.
 */
export const getUserDetail = defineEndpoint({
  path: '/api/index/getUserDetail',
  method: 'POST',
  auth: 'session',
  visitors: 'allowed',
  request: z.object({ userId, yxAccid }).check(exactlyOne('userId', 'yxAccid')),
  response: UserDetail,
});

export const ProfileItem = { picture: 'picture', video: 'video' } as const;
export type ProfileItem = (typeof ProfileItem)[keyof typeof ProfileItem];

/**
 * SPEC §7 /api/anchor/checkUserInfo (shape not shown; the reference server's reading): whether
 * the caller's profile is complete. A host needs at least one picture and one video in the
 * picList; a user needs nothing more than sign-up gave.
 */
export const checkUserInfo = defineEndpoint({
  path: '/api/anchor/checkUserInfo',
  method: 'POST',
  auth: 'session',
  request: Empty,
  response: z.object({
    complete: z.boolean(),
    missing: z.array(z.union([z.literal(ProfileItem.picture), z.literal(ProfileItem.video)])),
  }),
});

/**
 * SPEC §7 /api/user/followUser: `follow: true` follows, `false` unfollows; both idempotent
 * (following twice is one follow, unfollowing someone not followed is no error). A new
 * follow sends the followed person SPEC §4 system message -4 as an IM custom notification
 * (content `FollowerAddedNotice`). Following oneself: TEXT_CANNOT_FOLLOW_SELF.
 */
export const followUser = defineEndpoint({
  path: '/api/user/followUser',
  method: 'POST',
  auth: 'session',
  request: z.object({ beFollowUserId: userId, beFollowYxAccid: yxAccid, follow: z.boolean() })
    .check(exactlyOne('beFollowUserId', 'beFollowYxAccid')),
  response: z.object({
    userId: z.number(),
    yxAccid: z.string(),
    /** Whether the caller follows the person now. */
    followed: z.boolean(),
    /** The person's follower count now. */
    followerCount: z.number(),
  }),
});

/** The content of the -4 notification a new follow sends (SPEC §4 "-4 increments follower count"). */
export const FollowerAddedNotice = z.object({
  attachType: z.literal(-4),
  /** The new follower. */
  userId: z.number(),
  yxAccid: z.string(),
  nickname: z.string(),
  icon: z.string(),
  /** The followed person's follower count with this follow. */
  followerCount: z.number(),
});
export type FollowerAddedNotice = z.output<typeof FollowerAddedNotice>;

export const FollowListType = { follows: 'follows', followers: 'followers' } as const;
export type FollowListType = (typeof FollowListType)[keyof typeof FollowListType];

export const FollowListItem = z.extend(PersonSummary, {
  /** When the follow began, milliseconds since the epoch. */
  followTime: z.number(),
});
export type FollowListItem = z.output<typeof FollowListItem>;

/**
 * The caller's follow lists for /followList (no path in SPEC §7; the reference server's):
 * `follows`, the people the caller follows, and `followers`, the people who follow the
 * caller (their `isFollowed` says whether the caller follows back). Newest follow first.
 */
export const followList = defineEndpoint({
  path: '/api/user/followList',
  method: 'POST',
  auth: 'session',
  request: z.object({
    type: z.union([z.literal(FollowListType.follows), z.literal(FollowListType.followers)]),
    currentPage,
    pageSize: pageSize(MAX_PEOPLE_PAGE_SIZE),
  }),
  response: Page(FollowListItem),
});

const mediaUrl = z.string().check(z.maxLength(MEDIA_URL_MAX * 2));

/**
 * SPEC §7 /api/user/updateUserInfo: changes the given parts of the caller's own profile and
 * answers the whole of it (SPEC §3 Current user). A picList replaces the list, in its order.
 * URLs are same-origin media paths (seeded avatars or uploads) or https links on the
 * deployment's media hosts (media.ts `isAllowedMediaUrl`, else TEXT_MEDIA_URL_INVALID). The
 * schema only caps sizes; the limits are checked with the TEXT_ messages.
 */
export const updateUserInfo = defineEndpoint({
  path: '/api/user/updateUserInfo',
  method: 'POST',
  auth: 'session',
  // The largest profile the server accepts fits: a nickname, an icon and a full picList, with URLs at their longest in any script.
  bodyLimit: bodyLimitFor(NICKNAME_MAX * 4 + (PIC_LIST_MAX + 1) * (MEDIA_URL_MAX * 3 + 32) + 128),
  request: z.object({
    nickname: z.optional(z.string().check(z.maxLength(500))),
    /** The avatar. */
    icon: z.optional(mediaUrl),
    picList: z.optional(z.array(z.object({
      mediaType: z.union([z.literal(1), z.literal(2)]),
      mediaUrl,
    })).check(z.maxLength(100))),
  }),
  response: MineInfo,
});

/**
 * SPEC §7 /api/user/anchorGetUserList: a host's list of users (userType 1, visitors left out)
 * to call, online first, then VIPs, then by id; `onlineStatus` as the home list's. Only hosts
 * (TEXT_HOSTS_ONLY). `canCall` applies the app config: `prime_achor_can_call` is '1' and the
 * host's level is in `achor_hide_button` (SPEC §5 host call authorisation).
 */
export const anchorGetUserList = defineEndpoint({
  path: '/api/user/anchorGetUserList',
  method: 'POST',
  auth: 'session',
  request: z.object({
    currentPage,
    pageSize: pageSize(MAX_PEOPLE_PAGE_SIZE),
    onlineStatus: z.optional(onlineStatusFilter),
  }),
  response: z.extend(Page(PersonSummary), { canCall: z.boolean() }),
});
