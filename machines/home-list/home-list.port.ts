/**
 * What the home list needs from the world (SPEC §2 / and its sub-views; §3 Home tab; §7 Users
 * and home), in the home's words. src/screens/home implements it over the API; tests use
 * manual-mode fakes. Shapes follow the API's cards (src/api/contract/home.ts, live.ts,
 * people.ts) with a `kind` so one list can hold any of them.
 */

/** SPEC §3 User profile onlineGroupStatus: 1 online, 2 busy (in a call), 3 offline (the default). */
export type OnlineStatus = 1 | 2 | 3;
export const OFFLINE: OnlineStatus = 3;

/** `onlineStatus` of a host-list request: 0 everyone (online first), 1 online or busy, 3 offline. */
export const OnlineFilter = { all: 0, onlineOrBusy: 1, offline: 3 } as const;
export type OnlineFilter = (typeof OnlineFilter)[keyof typeof OnlineFilter];

export interface TagRef {
  id: number;
  tagName: string;
}

/** A person as a card shows them. */
export interface PersonCard {
  userId: number;
  yxAccid: string;
  nickname: string;
  icon: string;
  userLevel: number;
  levelName: string;
  age: number | null;
  countryName: string | null;
  countryCode: string | null;
  isVip: boolean;
  onlineGroupStatus: OnlineStatus;
}

export interface HostCard extends PersonCard {
  kind: 'host';
  /** Call price, diamonds per minute. */
  videoPrice: number;
  cover: string;
  tags: readonly TagRef[];
}

export interface LiveCard extends PersonCard {
  kind: 'live';
  title: string;
  joinNum: number;
  /** The followed-lives list (SPEC §2 liveList "followed lives"). */
  followed: boolean;
}

/** A user on a host's user list (SPEC §7 anchorGetUserList), with whether this host may call them. */
export interface UserCard extends PersonCard {
  kind: 'user';
  canCall: boolean;
}

export type HomeItem = HostCard | LiveCard | UserCard;

/** SPEC §3 Home tab pageSize, §9: the home list pages by 10. */
export const HOME_PAGE_SIZE = 10;

/** One list of the home: what `loadPage` is asked for. */
export type ListQuery =
  /** /api/anchor/v4/anchorList. tagId 0: every tag; countryIds empty: every country. */
  | { source: 'hosts'; onlineStatus: OnlineFilter; tagId: number; countryIds: readonly number[] }
  /** /api/agora/live/queryLiveList. */
  | { source: 'live' }
  /** /api/agora/live/queryMyFollowLive. */
  | { source: 'followedLive' }
  /** /api/user/anchorGetUserList (hosts only). */
  | { source: 'users'; onlineStatus: OnlineFilter };

/** The All tab's first list (online or busy hosts of every tag and country): what the home shows first. */
export const FIRST_HOME_QUERY = { source: 'hosts', onlineStatus: OnlineFilter.onlineOrBusy, tagId: 0, countryIds: [] } as const satisfies ListQuery;

export interface Country {
  countryId: number;
  countryName: string;
  countryCode: string;
}

export interface Banner {
  id: number;
  title: string;
  picUrl: string;
  /** An app route or an https page; null: nowhere. */
  linkUrl: string | null;
}

/** What the home is built from: the home tags (children of the first parent tag), countries, banners. */
export interface HomeSetup {
  tags: readonly TagRef[];
  countries: readonly Country[];
  banners: readonly Banner[];
}

export interface HomePort {
  loadSetup(): Promise<HomeSetup>;
  /** One page of a list (1-based `page`). */
  loadPage(query: ListQuery, page: number, pageSize: number): Promise<HomeItem[]>;
  /** Online status by IM account, at most STATUS_BATCH accounts a call; unknown accounts are left out. */
  lookupStatuses(accounts: readonly string[]): Promise<Readonly<Record<string, OnlineStatus>>>;
  /** A number in [0, 1) (Math.random in the app; fixed in tests), for the match. */
  random(): number;
}

/** SPEC §9: lookups in groups of 100. */
export const STATUS_BATCH = 100;
