/**
 * The system messages of SPEC §4 (attachType), declared once and routed to the machine
 * that owns each: call, live rooms, the payment countdown, profile or the app itself. Content arrives as an
 * object or a JSON string and is untrusted: anything unreadable or unknown is reported as
 * ignored, never thrown.
 */
import { parseExt } from '../im/preview';
import type { GiftAsk, ReceivedGift } from '../ports/gift.port';
import { AttachType, CallStateType, LIVE_END_CODE_FORCED } from '../codes/system.codes';

export { SYSTEM_SENDER_ACCID } from './system-sender';


export const TEXT_REFUSED = 'The other party has refused.';
export const TEXT_ASK_GIFT_REFUSED = 'Asking for a gift was refused';

export type SystemOwner = 'call' | 'liveRooms' | 'wallet' | 'profile' | 'app';

export type SystemEvent =
  | { type: 'system.callTargetChannel'; channelId: string }
  | { type: 'system.callRefused'; text: string }
  | { type: 'system.callWarning'; channelId: string; text: string }
  | { type: 'system.inCallTranslation'; text: string }
  | ({ type: 'system.giftReceived' } & ReceivedGift)
  | { type: 'system.callIncome'; amount: number }
  | { type: 'system.giftIncome'; amount: number }
  | { type: 'system.askGiftRefused'; text: string }
  | { type: 'system.giftAsked'; ask: GiftAsk }
  /** `channelId`: the room it ended (agoraChannelId), when the notice says; a notice of an earlier room is not this one's end. */
  | { type: 'system.liveForcedEnd'; code: number; channelId?: string }
  | { type: 'system.boosting'; on: boolean }
  | { type: 'system.becameHost' }
  | { type: 'system.followerAdded' }
  | { type: 'system.cryptoPayment'; paid: boolean; orderNo: string };

export type Routed =
  | { routed: true; owner: SystemOwner; event: SystemEvent }
  | { routed: false; reason: string };

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
};

type Entry = (attach: Record<string, unknown>) => Routed;
const to = (owner: SystemOwner, event: SystemEvent): Routed => ({ routed: true, owner, event });

/** One row per attachType of SPEC §4. */
const TABLE: Readonly<Record<number, Entry>> = {
  [AttachType.callState]: (a) => {
    switch (num(a.type)) {
      case CallStateType.targetChannel: return to('call', { type: 'system.callTargetChannel', channelId: str(a.channelId) });
      case CallStateType.refused: return to('call', { type: 'system.callRefused', text: TEXT_REFUSED });
      case CallStateType.warning:
        return to('call', { type: 'system.callWarning', channelId: str(a.channelId), text: str(a.content) });
      default: return { routed: false, reason: `attachType -3 with unknown type ${str(a.type)}` };
    }
  },
  [AttachType.inCallTranslation]: (a) => to('call', { type: 'system.inCallTranslation', text: str(a.content) }),
  [AttachType.giftReceivedInCall]: (a) => to('call', {
    type: 'system.giftReceived',
    giftId: a.giftId === undefined ? null : num(a.giftId),
    giftImg: str(a.giftImg),
    giftNum: Math.max(1, Math.floor(num(a.giftNum))),
    giftName: str(a.giftName),
    fromNick: str(a.fromNick),
  }),
  [AttachType.callIncome]: (a) => to('call', { type: 'system.callIncome', amount: num(a.num) }),
  [AttachType.giftIncome]: (a) => to('call', { type: 'system.giftIncome', amount: num(a.num) }),
  [AttachType.askGiftRefused]: () => to('call', { type: 'system.askGiftRefused', text: TEXT_ASK_GIFT_REFUSED }),
  [AttachType.giftAsked]: (a) => {
    const askId = num(a.askId);
    const giftId = num(a.giftId);
    // An ask is answered by its id: without one (and a gift) there is nothing to answer.
    if (!Number.isInteger(askId) || askId <= 0 || !Number.isInteger(giftId) || giftId <= 0) {
      return { routed: false, reason: 'attachType 17 without askId or giftId' };
    }
    return to('call', {
      type: 'system.giftAsked',
      ask: {
        askId, giftId, channelId: str(a.channelId), giftName: str(a.giftName), giftImg: str(a.giftImg),
        giftPrice: Math.max(0, num(a.giftPrice)), fromNick: str(a.fromNick),
      },
    });
  },
  [AttachType.liveForcedEnd]: (a) => {
    const channelId = str(a.agoraChannelId);
    return to('liveRooms', { type: 'system.liveForcedEnd', code: LIVE_END_CODE_FORCED, ...(channelId ? { channelId } : {}) });
  },
  [AttachType.boostingOn]: () => to('liveRooms', { type: 'system.boosting', on: true }),
  [AttachType.boostingOff]: () => to('liveRooms', { type: 'system.boosting', on: false }),
  [AttachType.becameHost]: () => to('app', { type: 'system.becameHost' }),
  [AttachType.followerAdded]: () => to('profile', { type: 'system.followerAdded' }),
  [AttachType.cryptoPayment]: (a) => to('wallet', {
    type: 'system.cryptoPayment',
    paid: a.usdtPayStatus === true || a.usdtPayStatus === 'true',
    orderNo: str(a.usdtOrderNo),
  }),
};

/**
 * The attach of a notification's content when it reads as a system message (it carries an
 * attachType): the content itself, or wrapped as { attach } / { data }, each possibly a JSON
 * string. Null otherwise. The hub refuses a client's notification that this reads as one.
 */
export function systemAttachOf(content: unknown): Record<string, unknown> | null {
  const outer = parseExt(content);
  if (!outer) return null;
  const attach = 'attachType' in outer ? outer : parseExt(outer.attach) ?? parseExt(outer.data);
  return attach && 'attachType' in attach ? attach : null;
}

/** Reads a notification's content (object or JSON string, attach possibly nested) and routes it. */
export function routeSystemMessage(content: unknown): Routed {
  if (!parseExt(content)) return { routed: false, reason: 'unreadable system message content' };
  const attach = systemAttachOf(content);
  if (!attach) return { routed: false, reason: 'system message without attachType' };
  const type = num(attach.attachType);
  const entry = TABLE[type];
  if (!entry) return { routed: false, reason: `unknown attachType ${str(attach.attachType)}` };
  return entry(attach);
}
