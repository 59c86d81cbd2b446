/** Call snapshot → what the call screens show (SPEC §2 host overlays and user call screens). */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { AskGiftMachine } from '../ask-gift/ask-gift.machine';
import type { GiftListMachine } from '../gift-list/gift-list.machine';
import type { GiftQueueMachine } from '../gift-queue/gift-queue.machine';
import type { GiftingMachine, KnownBalance } from '../gifting/gifting.machine';
import type { TalkMessage } from '../talk/talk.machine';
import { CallText, appCallStateOf } from './call.machine';
import type { CallMachine, CallPeer, CallSummary } from './call.machine';
import type { InCallMachine, TranslatedLine } from './in-call.machine';

export type CallRef = ActorRefFrom<CallMachine>;
type CallSnapshot = SnapshotFrom<CallMachine>;
export type InCallRef = ActorRefFrom<InCallMachine>;
type InCallSnapshot = SnapshotFrom<InCallMachine>;
export type GiftListRef = ActorRefFrom<GiftListMachine>;
export type GiftQueueRef = ActorRefFrom<GiftQueueMachine>;
export type AskGiftRef = ActorRefFrom<AskGiftMachine>;
export type GiftingRef = ActorRefFrom<GiftingMachine>;

export type CallPhase =
  /** Ours, before the peer answers: cancel is possible. */
  | 'dialling'
  /** Theirs, ringing here: accept or reject. */
  | 'ringing'
  | 'connecting'
  | 'connected'
  | 'ending';

export interface CallView {
  phase: CallPhase;
  /** SPEC §4: the ringing tone plays while the app call state is calling (ours once it rings there, not while it is set up). */
  tone: boolean;
  direction: 'out' | 'in';
  isHost: boolean;
  peer: CallPeer;
  video: boolean;
  /** When the first remote frame arrived (ms since the epoch); 0 before. */
  connectedAt: number;
  /** The server's warning of this call (SPEC §4 -3 type 3), if it sent one. */
  warning: string | null;
  /** Diamonds a period (a minute) after the VIP discount, and before it when the server said (SPEC §6). */
  price: number | null;
  listPrice: number | null;
  billingPeriodMs: number | null;
  /** Whether this side pays for the call (the user, whoever placed it). */
  pays: boolean;
  /** The payer's diamonds when the call was created or rang her, when the server said. */
  balance: number | null;
  /** The VIP discount as shown: "100 − d % off" (SPEC §6), when one applies. */
  percentOff: number | null;
  /** A paying callee's price: being asked of the server (she cannot take the call yet), known, or not to be had. */
  terms: 'asking' | 'known' | 'unknown' | null;
  /** Whether Accept is taken now. */
  canAccept: boolean;
}

export function phaseOf(snapshot: CallSnapshot): CallPhase {
  const state = appCallStateOf(snapshot);
  if (state === 'calling') return snapshot.context.direction === 'out' ? 'dialling' : 'ringing';
  if (state === 'callConnecting') return 'connecting';
  if (state === 'connected') return 'connected';
  if (snapshot.matches({ outgoing: 'starting' })) return 'dialling';
  return 'ending';
}

export function callViewOf(snapshot: CallSnapshot): CallView {
  const c = snapshot.context;
  return {
    phase: phaseOf(snapshot),
    tone: appCallStateOf(snapshot) === 'calling',
    direction: c.direction,
    isHost: c.isHost,
    peer: c.peer,
    video: c.callType !== 10,
    connectedAt: c.connectedAt,
    warning: c.warning,
    price: c.peer.videoPrice ?? null,
    listPrice: c.listPrice,
    billingPeriodMs: c.billingPeriodMs,
    pays: !c.isHost,
    balance: c.balance,
    percentOff: c.callDiscount !== null && c.callDiscount > 0 && c.callDiscount < 100 ? 100 - c.callDiscount : null,
    terms: termsOf(snapshot),
    canAccept: snapshot.can({ type: 'call.accept' }),
  };
}

function termsOf(snapshot: CallSnapshot): CallView['terms'] {
  if (snapshot.context.isHost || snapshot.context.direction !== 'in') return null;
  if (snapshot.matches({ incoming: { ringing: 'pricing' } })) return 'asking';
  if (snapshot.matches({ incoming: { ringing: 'unpriced' } })) return 'unknown';
  return 'known';
}

/**
 * Whether the end screen offers a recharge: the payer could not pay (SPEC §8 1080, said as
 * CallText.balance) or the server ended the call when she could not pay on (`serverBalanceText`).
 */
export function offersRecharge(summary: Pick<CallSummary, 'text'>, isHost: boolean, serverBalanceText: string): boolean {
  return !isHost && (summary.text === CallText.balance || summary.text === serverBalanceText);
}

/** Equal views render the same (for useSelector's compare). */
export function sameView(a: CallView, b: CallView): boolean {
  return a.phase === b.phase && a.tone === b.tone && a.connectedAt === b.connectedAt && a.peer === b.peer && a.isHost === b.isHost
    && a.listPrice === b.listPrice && a.billingPeriodMs === b.billingPeriodMs && a.warning === b.warning && a.price === b.price
    && a.balance === b.balance && a.percentOff === b.percentOff && a.terms === b.terms && a.canAccept === b.canAccept;
}

/** The room of a connected call (income, translated lines, gifts). */
export const selectInCall = (s: CallSnapshot) => s.children.inCall as InCallRef | undefined;
/** The room's children (SPEC §2 in-call screen: gifts for both sides, asks for hosts, paying for users). */
export const selectGiftList = (s: InCallSnapshot | undefined) => s?.children.giftList as GiftListRef | undefined;
export const selectGiftQueue = (s: InCallSnapshot | undefined) => s?.children.giftQueue as GiftQueueRef | undefined;
export const selectAskGift = (s: InCallSnapshot | undefined) => s?.children.askGift as AskGiftRef | undefined;
export const selectGifting = (s: InCallSnapshot | undefined) => s?.children.gifting as GiftingRef | undefined;

/** One line of the in-call chat: ours, theirs, or a translation the server sent (-1). */
export interface ChatLine {
  key: string;
  text: string;
  kind: 'out' | 'in' | 'translated';
  time: number;
  /** Ours only: still on its way, or why it failed. */
  pending: boolean;
  failure: string | null;
}

/** How long before the call connected a line still counts as part of it (the ringing). */
export const CHAT_LINES_GRACE_MS = 60_000;
/** Lines shown over the video; the history shows all. */
export const CHAT_LINES_SHOWN = 4;

/** The call's chat and its translations in time order; with `since`, only those from then on. */
export function chatLinesOf(messages: readonly TalkMessage[], translations: readonly TranslatedLine[], since = 0): ChatLine[] {
  const lines: ChatLine[] = [];
  for (const m of messages) {
    if (m.type !== 'text' || !m.text || m.time < since) continue;
    lines.push({
      key: m.idClient || m.idServer, text: m.text, kind: m.flow === 'out' ? 'out' : 'in', time: m.time,
      pending: m.status === 'sending', failure: m.status === 'failed' || m.status === 'refused' ? m.reason ?? 'Not sent' : null,
    });
  }
  for (const t of translations) {
    if (t.time >= since) lines.push({ key: t.key, text: t.text, kind: 'translated', time: t.time, pending: false, failure: null });
  }
  return lines.sort((a, b) => a.time - b.time);
}

/** Periods the server has charged by `t`: the first when the call connects, then one each period. */
export function periodsCharged(t: number, connectedAt: number, periodMs: number): number {
  if (connectedAt <= 0 || t < connectedAt || periodMs <= 0) return 0;
  return 1 + Math.floor((t - connectedAt) / periodMs);
}

/**
 * The user's diamonds at `now`: the last balance the server stated, less the periods charged
 * since (SPEC §7 names no balance endpoint for users; createCall and each gift send say it).
 * Null when no balance is known.
 */
export function remainingBalance(
  known: KnownBalance | null, call: { connectedAt: number; periodMs: number | null; price: number | null }, now: number,
): number | null {
  if (!known) return null;
  if (!call.price || !call.periodMs) return known.amount;
  const since = periodsCharged(now, call.connectedAt, call.periodMs) - periodsCharged(known.at, call.connectedAt, call.periodMs);
  return Math.max(0, known.amount - Math.max(0, since) * call.price);
}

/** Warned before the money runs out: fewer than two periods' price left. */
export const LOW_BALANCE_PERIODS = 2;
export function isLowBalance(remaining: number | null, price: number | null): boolean {
  return remaining !== null && price !== null && price > 0 && remaining < LOW_BALANCE_PERIODS * price;
}

/** Elapsed call time as m:ss or h:mm:ss. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
