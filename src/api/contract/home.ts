/**
 * The home page and what it is built from (SPEC §2 / and its sub-views, the Home paragraph;
 * §3 Home tab, Base config; §4 Home list paging; §7 Users and home: /api/index/indexTag,
 * /api/anchor/v4/anchorList, /api/index/getCountryList, /api/index/v2/getAppPicByType,
 * /api/index/v2/getBaseConfigForIntoBag and v4).
 *
 * Home: tabs are the children of the first parent tag of `indexTag`; a tab lists hosts with
 * `anchorList` by its `tagId`. The All tab asks for online hosts first
 * (onlineStatus 1 with currentPage) and, once that list is finished, its 'more offline
 * anchors' expansion asks for offline ones (onlineStatus 3 with its own page number, the Home
 * tab's moreCurrentPage). A page shorter than pageSize is the last (SPEC §4).
 *
 * Shapes not given by SPEC §7 are the reference server's choices, documented per endpoint.
 */
import * as z from 'zod/mini';
import { Empty, ImageUrl, defineEndpoint } from './endpoint';
import { Page, PersonSummary, TagRef, currentPage, onlineStatusFilter, pageSize } from './people';

export { OnlineStatusFilter } from './people';

/** Largest page of the home list (the home asks for 10, SPEC §9). */
export const MAX_ANCHOR_PAGE_SIZE = 100;
/** At most this many countries in one `countryIds` filter. */
export const MAX_COUNTRY_FILTER = 50;

/** SPEC §7 /api/index/indexTag: the tag tree, each level in id order. */
export const indexTag = defineEndpoint({
  path: '/api/index/indexTag',
  method: 'POST',
  auth: 'session',
  visitors: 'allowed',
  request: Empty,
  response: z.object({
    parentTags: z.array(TagRef),
    /** Every parent's children, flat; `parentId` names the parent. The home tabs: those of parentTags[0]. */
    childrenTags: z.array(z.extend(TagRef, { parentId: z.number() })),
  }),
});

/** A host on a home card. */
export const AnchorCard = z.extend(PersonSummary, {
  /** Call price, diamonds per minute. */
  videoPrice: z.number(),
  /** The first picture of the host's picList, or the avatar when there is none. */
  cover: ImageUrl,
  tags: z.array(TagRef),
});
export type AnchorCard = z.output<typeof AnchorCard>;

/**
 * `countryIds`: a comma list of country ids ('1,3'); '' or absent is every country. Parsed to
 * the list of ids.
 */
export const CountryIds = z.pipe(
  z.string().check(z.maxLength(400), z.regex(/^\s*(?:\d{1,9}\s*(?:,\s*\d{1,9}\s*)*)?$/)),
  z.transform((text) => [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean).map(Number))]),
).check(z.refine((ids) => ids.length <= MAX_COUNTRY_FILTER, { message: `At most ${MAX_COUNTRY_FILTER} countries.` }));

/**
 * SPEC §7 /api/anchor/v4/anchorList {currentPage, onlineStatus, pageSize, tagId, countryIds}:
 * hosts other than the caller (and than people the caller blocked), ordered by
 * onlineGroupStatus (online, busy, offline), then by user id, so pages neither repeat nor
 * skip a host while presence and the data stay unchanged.
 * - `onlineStatus` (OnlineStatusFilter; default 0): 0 all, 1 online or busy, 2 busy, 3 offline.
 * - `tagId` (default 0 = every tag): hosts with that tag, or with any child of it when it is a parent tag.
 * - `countryIds`: see CountryIds.
 */
export const anchorList = defineEndpoint({
  path: '/api/anchor/v4/anchorList',
  method: 'POST',
  auth: 'session',
  visitors: 'allowed',
  request: z.object({
    currentPage,
    pageSize: pageSize(MAX_ANCHOR_PAGE_SIZE),
    onlineStatus: z.optional(onlineStatusFilter),
    tagId: z.optional(z.int().check(z.minimum(0))),
    countryIds: z.optional(CountryIds),
  }),
  response: Page(AnchorCard),
});

export const Country = z.object({
  countryId: z.number(),
  countryName: z.string(),
  /** ISO 3166 alpha-2: the flag. */
  countryCode: z.string(),
});
export type Country = z.output<typeof Country>;

/** SPEC §7 /api/index/getCountryList: every country, by id (the home's country filter). */
export const getCountryList = defineEndpoint({
  path: '/api/index/getCountryList',
  method: 'POST',
  auth: 'session',
  visitors: 'allowed',
  request: Empty,
  response: z.array(Country),
});

/** Picture types of getAppPicByType (reference server's numbering). */
export const AppPicType = {
  /** Banners over the home list. */
  homeBanner: 1,
  /** Banners over the live list (the Live tab). */
  liveBanner: 2,
  /** Banners on the Mine page. */
  mineBanner: 3,
} as const;
export type AppPicType = (typeof AppPicType)[keyof typeof AppPicType];

export const AppPic = z.object({
  id: z.number(),
  type: z.number(),
  title: z.string(),
  /** Same-origin or https (SPEC §5). */
  picUrl: ImageUrl,
  /** Where a tap leads: an app route ('/invite') or an https page (shown in /iframePage); null: nowhere. */
  linkUrl: z.nullable(z.string()),
});
export type AppPic = z.output<typeof AppPic>;

/** SPEC §7 /api/index/v2/getAppPicByType ("banner list", SPEC §7 Other calls): the pictures of a type, in order. */
export const getAppPicByType = defineEndpoint({
  path: '/api/index/v2/getAppPicByType',
  method: 'POST',
  auth: 'session',
  visitors: 'allowed',
  request: z.object({ type: z.int().check(z.minimum(1), z.maximum(1000)) }),
  response: z.array(AppPic),
});

/**
 * SPEC §3 Base config. `microsoft_translator_config_json` is the app config key
 * `microsoft_translator_config` ({key, region, endpoint}) under the base config's names: `area`
 * is its region; `endpoint` is the reference server's addition (absent: Microsoft's global
 * endpoint; see translator.ts). The reference server sends it as an object; null when no
 * translator is configured.
 */
export const BaseConfig = z.object({
  businessConfig: z.object({
    /** App config key `business_enabled` ('1'): whether the business features (translation, quotas) are on. */
    enabled: z.boolean(),
    /** App config key `non_paid_user_count`: the daily quota of a user who never paid (resets at local midnight, SPEC §4). */
    nonPaidUserCount: z.number(),
    microsoft_translator_config_json: z.nullable(z.object({
      key: z.string(),
      area: z.string(),
      endpoint: z.optional(z.string()),
    })),
  }),
});
export type BaseConfig = z.output<typeof BaseConfig>;

/** App config keys of the base config (reference server's; SPEC §3 gives the field names only). */
export const BaseConfigKey = { enabled: 'business_enabled', nonPaidUserCount: 'non_paid_user_count' } as const;

/**
 * SPEC §7 /api/index/v4/getBaseConfigForIntoBag: base config "by open params and app id",
 * retried up to 3 times by the client (SPEC §8: failure throws after 3 retries). The open
 * params are the session (token); the app id is the `x-app-id` header. The same config for
 * every app id on the reference server.
 */
export const getBaseConfigForIntoBagV4 = defineEndpoint({
  path: '/api/index/v4/getBaseConfigForIntoBag',
  method: 'POST',
  auth: 'session',
  visitors: 'allowed',
  request: Empty,
  response: BaseConfig,
});

/** Said when a base config is asked for by app id without one (the `x-app-id` header). */
export const TEXT_APP_ID_NEEDED = 'The request names no app: the base config is given by app id.';

/**
 * SPEC §7 /api/index/v2/getBaseConfigForIntoBag: base config "by app id" only, reachable without
 * a session (the login, register and landing pages load it). The app id is the `x-app-id` header;
 * without one the answer is code 1000 with TEXT_APP_ID_NEEDED. The client retries it up to 3 times
 * as the v4 one (SPEC §8).
 */
export const getBaseConfigForIntoBagV2 = defineEndpoint({
  path: '/api/index/v2/getBaseConfigForIntoBag',
  method: 'POST',
  auth: 'none',
  request: Empty,
  response: BaseConfig,
});
