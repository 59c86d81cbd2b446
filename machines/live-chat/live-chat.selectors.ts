/**
 * Live room chat snapshot → what /liveRoom shows of it, for the host and for viewers (SPEC §3
 * Live chat record and wishlist, §4 gag and gift queue, §6 highlights, §9 audience).
 */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { GiftQueueMachine } from '../gift-queue/gift-queue.machine';
import type { ChatroomMember } from '../ports/chatroom.port';
import type { LiveWish } from '../ports/live.port';
import type { EnterHighlightsMachine, QueuedHighlight } from './enter-highlights.machine';
import { highlightsOnShow } from './enter-highlights.machine';
import type { LiveChatMachine } from './live-chat.machine';
import { TEXT_MUTED, isMuted } from './live-chat.types';
import type { LiveChatRecord, WhoBlock } from './live-chat.types';

export type LiveChatRef = ActorRefFrom<LiveChatMachine>;
type LiveChatSnapshot = SnapshotFrom<LiveChatMachine>;
export type EnterHighlightsRef = ActorRefFrom<EnterHighlightsMachine>;
export type LiveGiftQueueRef = ActorRefFrom<GiftQueueMachine>;

/** Where the chat is: entering the room, in it, failed to enter (retry), or the room is gone. */
export type LiveChatPhase = 'entering' | 'ready' | 'failed' | 'closed';

export function chatPhaseOf(s: LiveChatSnapshot | undefined): LiveChatPhase {
  if (!s || s.status !== 'active' || s.matches('closed')) return 'closed';
  if (s.matches('ready')) return 'ready';
  if (s.matches('failed')) return 'failed';
  return 'entering';
}

/** One line of the room chat (SPEC §3 Live chat record), ours marked. */
export interface LiveChatLine extends LiveChatRecord {
  own: boolean;
  kind: 'text' | 'gift';
}

export const chatLinesOf = (s: LiveChatSnapshot | undefined): LiveChatLine[] =>
  (s?.context.records ?? []).map((r) => ({ ...r, own: r.from === s!.context.entry.account, kind: r.giftImg !== null || r.giftId !== null ? 'gift' : 'text' }));

export interface AudienceView {
  /** SPEC §3 joinNum: joins so far. */
  joinNum: number;
  /** Members in the room now (up to 500, SPEC §9). */
  members: readonly ChatroomMember[];
}

export const audienceOf = (s: LiveChatSnapshot | undefined): AudienceView =>
  ({ joinNum: s?.context.joinNum ?? 0, members: s?.context.audience ?? [] });

/** SPEC §4 gag: this member's whoBlock, whether they may chat, and why not. */
export interface GagView {
  whoBlock: WhoBlock;
  muted: boolean;
  reason: string | null;
}

export function gagOf(s: LiveChatSnapshot | undefined): GagView {
  const whoBlock = (s?.context.whoBlock ?? 0) as WhoBlock;
  const muted = isMuted(whoBlock);
  return { whoBlock, muted, reason: muted ? TEXT_MUTED : null };
}

/** The send under way, and what the person was last told about a send or a gag. */
export const chatSendingOf = (s: LiveChatSnapshot | undefined) => ({
  sending: s?.matches({ ready: { sending: 'sending' } }) ?? false,
  gagging: s?.matches({ ready: { gagging: 'gagging' } }) ?? false,
  notice: s?.context.notice ?? null,
});

/** A wish with its progress as the screen shows it (0–100 %). */
export interface WishView extends LiveWish {
  percent: number;
}

export const wishlistOf = (s: LiveChatSnapshot | undefined): WishView[] =>
  (s?.context.wishlist ?? []).map((w) => ({ ...w, percent: Math.round(Math.min(1, Math.max(0, w.ratio)) * 100) }));

export const selectHighlights = (s: LiveChatSnapshot | undefined) => s?.children.highlights as EnterHighlightsRef | undefined;
export const selectLiveGiftQueue = (s: LiveChatSnapshot | undefined) => s?.children.giftQueue as LiveGiftQueueRef | undefined;

/** The entering-room highlights on show, oldest (leaving) first. */
export const highlightsOf = (s: SnapshotFrom<EnterHighlightsMachine> | undefined): QueuedHighlight[] =>
  (s ? highlightsOnShow(s.context) : []);
