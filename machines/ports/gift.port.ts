/**
 * What the gifts of a call need from the world (SPEC §3 Gift, §5 gift quantity, price filter
 * and ask cooldown, §7 Gifts): the gift list, sending a gift, a host asking for one and the
 * user refusing. The HTTP adapter (src/app/gifts.ts) maps src/api/contract/gift.ts onto it;
 * the constants below are the contract's, checked equal there.
 */

/** SPEC §8 1080 'diamond.not.enough', said in words: a gift or a secret's unlock refused for want of diamonds. */
export const TEXT_NOT_ENOUGH_DIAMONDS = 'You do not have enough diamonds.';

/** SPEC §5: gift quantity 1–99, an integer. */
export const GIFT_NUM_MAX = 99;
/** SPEC §9 ask-gift cooldown. */
export const ASK_GIFT_COOLDOWN_MS = 15_000;
/** SPEC §9 gift animation hide. */
export const GIFT_SHOW_MS = 5_000;
/** The highest price the list filter takes (the contract's bound). */
export const GIFT_PRICE_FILTER_MAX = 1_000_000;

export interface GiftItem {
  id: number;
  name: string;
  /** Diamonds for one. */
  price: number;
  smallImg: string;
  icon: string;
}

export interface GiftCategory {
  id: number;
  name: string;
  gifts: readonly GiftItem[];
}

export interface GiftFilter {
  minPrice?: number;
  maxPrice?: number;
}

/** A host's ask for a gift, as the user of the call hears of it (attachType 17, a reference-server extension). */
export interface GiftAsk {
  askId: number;
  channelId: string;
  giftId: number;
  giftName: string;
  giftImg: string;
  giftPrice: number;
  fromNick: string;
}

/** A gift that arrived in a call (attachType 4). */
export interface ReceivedGift {
  giftId: number | null;
  giftName: string;
  giftImg: string;
  giftNum: number;
  fromNick: string;
}

export type GiftRefusal = 'balance' | 'cooldown' | 'error';

export class GiftApiError extends Error {
  override name = 'GiftApiError';
  constructor(
    readonly refusal: GiftRefusal,
    message: string,
    /** For a cooldown refusal: how long until the next ask is allowed. */
    readonly retryInMs = 0,
  ) {
    super(message);
  }
}

export interface GiftApiPort {
  /** `/api/gift/v2/getGiftList`: categories in display order, 'Popular' first. */
  list(filter: GiftFilter): Promise<GiftCategory[]>;
  /**
   * `/api/gift/send` within a call (`channelId`) or a live room (`yxRoomId`, the room's chat
   * room, where the server then posts the gift); answers the sender's diamonds after paying.
   * `idempotencyKey` is the send's intent's (machines/shared/intent-key.ts): the same send again
   * pays once. Rejects with GiftApiError (a refusal), or UnansweredError when no answer came.
   */
  send(request: {
    channelId?: string; yxRoomId?: string; toUserId: number; giftId: number; giftNum: number; idempotencyKey: string;
  }): Promise<{ balance: number; value: number }>;
  /** `/api/gift/askFor`; rejects with GiftApiError ('cooldown' with retryInMs while the server's cooldown runs). */
  askFor(request: { beAskYxAccid: string; giftId: number }): Promise<{ askId: number }>;
  /** `/api/gift/refuseAsk`. */
  refuseAsk(askId: number): Promise<void>;
}
