/** The system messages' codes of SPEC §4 (attachType, and -3's `type`), declared once. */

export const AttachType = {
  callState: -3,
  inCallTranslation: -1,
  giftReceivedInCall: 4,
  callIncome: 15,
  giftIncome: 18,
  askGiftRefused: 16,
  /**
   * Not one of SPEC §4's: the reference server's notice of a host's ask for a gift, to the
   * user of the call (src/api/contract/gift.ts ASK_GIFT_ATTACH_TYPE, GiftAskNotice).
   */
  giftAsked: 17,
  liveForcedEnd: 44,
  boostingOn: 63,
  boostingOff: 64,
  becameHost: 58,
  followerAdded: -4,
  cryptoPayment: 99,
} as const;
export type AttachType = (typeof AttachType)[keyof typeof AttachType];

/** -3's `type`: 0 target channel, 1 refused, 3 warning. */
export const CallStateType = { targetChannel: 0, refused: 1, warning: 3 } as const;
export type CallStateType = (typeof CallStateType)[keyof typeof CallStateType];

/** Code of a live ended by the system (SPEC §4: 44 forced live end, code 3). */
export const LIVE_END_CODE_FORCED = 3;
