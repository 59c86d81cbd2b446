/**
 * Gifts (SPEC §3 Gift, §4 System messages 4, 16 and 18, §5 gift quantity and price filter and
 * the ask-gift cooldown, §7 Gifts and money). Paths beyond /api/gift/v2/getGiftList and
 * /api/gift/askFor are reference-server extensions.
 *
 * - getGiftList answers the gifts grouped by category, 'Popular' first (a gift may be in
 *   Popular and in its own category); `minPrice` / `maxPrice` keep the gifts priced within
 *   them (inclusive; either may be left out). Categories left empty by the filter are left out.
 * - sendGift: the sender pays giftPrice × giftNum diamonds (giftNum an integer 1–99) in one
 *   transaction (conditional UPDATE, never below zero; 1080 'diamond.not.enough' when short,
 *   nothing taken), the host's income grows by the same, and the host gets attachType 18
 *   {num: value}. With a channelId the gift is part of that call (both must be its parties
 *   and the call connected): it adds to the call's gift income, the host also gets
 *   attachType 4 {giftId, giftImg, giftNum}, and any pending ask for that gift in the call is
 *   fulfilled. Gifts go to hosts only (TEXT_GIFT_HOSTS_ONLY).
 *   With a yxRoomId the gift is sent in that live room (src/api/contract/live.ts), which must
 *   be live and the recipient's (TEXT_GIFT_NOT_IN_LIVE); a gift is in a call or a room, not
 *   both (TEXT_GIFT_ONE_SCENE). A live gift moves the diamonds the same way, counts toward
 *   the room's wishlist, stats and send rank and the host's gift task, and is posted into the
 *   chat room after the commit (LiveGiftAttach); the host gets no attachType 18 for it (18
 *   adds to a call's gift income, and a host in a private call from the room is in one).
 *   A send carries an idempotency key (src/api/contract/idempotency.ts): the same send
 *   received again pays nothing and answers what the first answered.
 * - askForGift: the host of a connected call asks its user for a gift: the user gets the
 *   custom notification ASK_GIFT_ATTACH_TYPE (an extension: GiftAskNotice). At most one ask
 *   per call every ASK_GIFT_COOLDOWN_MS (SPEC §9 15 s): an earlier ask is refused with code
 *   ResultCode.invalidRequest and TEXT_ASK_COOLDOWN (the remaining seconds filled in).
 * - refuseAskGift: the user refuses a pending ask; the host gets attachType 16 (the app shows
 *   'Asking for a gift was refused'). Refusing again, or an ask fulfilled since, is no error
 *   and pushes nothing.
 */
import * as z from 'zod/mini';
import { ImageUrl, defineEndpoint } from './endpoint';
import { IdempotencyKey } from './idempotency';

export const GIFT_NUM_MAX = 99;
export const GIFT_PRICE_FILTER_MAX = 1_000_000;
/** SPEC §9 ask-gift cooldown. */
export const ASK_GIFT_COOLDOWN_MS = 15_000;
/** The name of the category every client shows first (SPEC §2 gift popup titled 'Popular'). */
export const POPULAR_CATEGORY = 'Popular';
/** The custom notification of an ask (not one of SPEC §4's attachTypes: a reference-server extension). */
export const ASK_GIFT_ATTACH_TYPE = 17;

export const TEXT_GIFT_NOT_FOUND = 'This gift does not exist.';
export const TEXT_GIFT_HOSTS_ONLY = 'Gifts can only be sent to hosts.';
export const TEXT_GIFT_TO_SELF = 'You cannot send a gift to yourself.';
export const TEXT_GIFT_NOT_IN_CALL = 'This call is not in progress.';
export const TEXT_GIFT_NOT_IN_LIVE = 'This live has ended.';
export const TEXT_GIFT_ONE_SCENE = 'A gift is sent in a call or in a live room, not both.';
export const TEXT_ASK_HOSTS_ONLY = 'Only the host of a call can ask for a gift.';
export const TEXT_ASK_NOT_FOUND = 'This request for a gift does not exist.';
/** `{s}` is the whole seconds left. */
export const TEXT_ASK_COOLDOWN = 'Please wait {s} s before asking for another gift.';

/** The seconds left of a TEXT_ASK_COOLDOWN refusal, or null when `message` is not one. */
export function askCooldownSecondsOf(message: string): number | null {
  const [before, after] = TEXT_ASK_COOLDOWN.split('{s}') as [string, string];
  if (!message.startsWith(before) || !message.endsWith(after)) return null;
  const seconds = Number(message.slice(before.length, message.length - after.length));
  return Number.isInteger(seconds) && seconds > 0 ? seconds : null;
}

export const Gift = z.object({
  id: z.number(),
  name: z.string(),
  giftSmallImg: ImageUrl,
  giftPrice: z.number(),
  giftIcon: ImageUrl,
});
export type Gift = z.output<typeof Gift>;

export const GiftCategory = z.object({
  categoryId: z.number(),
  categoryName: z.string(),
  gifts: z.array(Gift),
});
export type GiftCategory = z.output<typeof GiftCategory>;

const price = z.int().check(z.minimum(0), z.maximum(GIFT_PRICE_FILTER_MAX));
const channelId = z.string().check(z.minLength(1), z.maxLength(128));

export const getGiftList = defineEndpoint({
  path: '/api/gift/v2/getGiftList',
  method: 'POST',
  auth: 'session',
  request: z.object({ minPrice: z.optional(price), maxPrice: z.optional(price) }),
  response: z.object({ giftList: z.array(GiftCategory) }),
});

export const sendGift = defineEndpoint({
  path: '/api/gift/send',
  method: 'POST',
  auth: 'session',
  request: z.object({
    /** The call the gift is part of, if any. */
    channelId: z.optional(channelId),
    /** The live room the gift is sent in, if any (its LiveInfo.yxRoomId). */
    yxRoomId: z.optional(channelId),
    toUserId: z.int().check(z.positive()),
    giftId: z.int().check(z.positive()),
    giftNum: z.int().check(z.minimum(1), z.maximum(GIFT_NUM_MAX)),
    /** One per tap on Send (src/api/contract/idempotency.ts): a replay is answered as the first time and pays nothing. */
    idempotencyKey: IdempotencyKey,
  }),
  response: z.object({
    giftId: z.number(),
    giftNum: z.number(),
    giftImg: ImageUrl,
    /** Diamonds paid (price × num). */
    value: z.number(),
    /** The sender's diamonds after paying. */
    balance: z.number(),
    /** The call's gift income now (with a channelId). */
    callGiftIncome: z.optional(z.number()),
  }),
});

export const askForGift = defineEndpoint({
  path: '/api/gift/askFor',
  method: 'POST',
  auth: 'session',
  request: z.object({
    beAskYxAccid: z.string().check(z.minLength(1), z.maxLength(64)),
    giftId: z.int().check(z.positive()),
  }),
  response: z.object({
    askId: z.number(),
    channelId: z.string(),
    /** When the next ask of this call is allowed, ms since the epoch. */
    nextAskAt: z.number(),
  }),
});

export const refuseAskGift = defineEndpoint({
  path: '/api/gift/refuseAsk',
  method: 'POST',
  auth: 'session',
  request: z.object({ askId: z.int().check(z.positive()) }),
  response: z.object({ refused: z.boolean() }),
});

/** attachType 18: the host's gift income grows by `num`. */
export const GiftIncomeNotice = z.object({
  attachType: z.literal(18),
  num: z.number(),
  giftId: z.number(),
  giftNum: z.number(),
  channelId: z.optional(z.string()),
});
export type GiftIncomeNotice = z.output<typeof GiftIncomeNotice>;

/** attachType 4: a gift received in a call. */
export const GiftReceivedNotice = z.object({
  attachType: z.literal(4),
  giftId: z.number(),
  giftImg: z.string(),
  giftNum: z.number(),
  giftName: z.string(),
  channelId: z.string(),
  fromYxAccid: z.string(),
  fromNick: z.string(),
});
export type GiftReceivedNotice = z.output<typeof GiftReceivedNotice>;

/** ASK_GIFT_ATTACH_TYPE: the host asks the user for a gift. */
export const GiftAskNotice = z.object({
  attachType: z.literal(ASK_GIFT_ATTACH_TYPE),
  askId: z.number(),
  channelId: z.string(),
  giftId: z.number(),
  giftName: z.string(),
  giftImg: z.string(),
  giftPrice: z.number(),
  fromYxAccid: z.string(),
  fromNick: z.string(),
});
export type GiftAskNotice = z.output<typeof GiftAskNotice>;

/** attachType 16: the user refused an ask. */
export const GiftAskRefusedNotice = z.object({
  attachType: z.literal(16),
  askId: z.number(),
  channelId: z.string(),
  giftId: z.number(),
});
export type GiftAskRefusedNotice = z.output<typeof GiftAskRefusedNotice>;
