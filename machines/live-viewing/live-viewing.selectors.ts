/** Live viewing snapshot → what /liveRoom shows a viewer (SPEC §2 /liveRoom, §4 viewing front status). */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { GiftListMachine } from '../gift-list/gift-list.machine';
import type { GiftingMachine } from '../gifting/gifting.machine';
import type { LiveChatRef } from '../live-chat/live-chat.selectors';
import { LiveFrontStatus } from './live-viewing.machine';
import type { LiveViewingMachine } from './live-viewing.machine';

export * from '../live-chat/live-chat.selectors';

export type LiveViewingRef = ActorRefFrom<LiveViewingMachine>;
type LiveViewingSnapshot = SnapshotFrom<LiveViewingMachine>;

/** SPEC §4 the viewing front status. */
export function frontStatusOf(s: LiveViewingSnapshot): LiveFrontStatus {
  if (s.matches({ inRoom: { stage: 'calling' } })) return LiveFrontStatus.calling;
  if (s.matches('inRoom')) return LiveFrontStatus.live;
  if (s.matches('joining') || s.matches('arriving') || s.matches('failed')) return LiveFrontStatus.loading;
  return LiveFrontStatus.liveEnd;
}

/** The host's video: joining the channel, in it without a picture, showing, or the link lost (retry). */
export type VideoState = 'none' | 'connecting' | 'waiting' | 'playing' | 'lost';

export function videoStateOf(s: LiveViewingSnapshot): VideoState {
  for (const state of ['connecting', 'waiting', 'playing', 'lost'] as const) {
    if (s.matches({ inRoom: { video: state } })) return state;
  }
  return 'none';
}

export interface LiveViewingView {
  frontStatus: LiveFrontStatus;
  video: VideoState;
  /** Joining failed: the screen offers to try again. */
  failed: boolean;
  hostUserId: number;
  hostNickname: string;
  hostIcon: string | null;
  title: string;
  /** SPEC §2: a private call can be asked for while the host takes them and is in the room. */
  canCallHost: boolean;
  giftTask: { target: number; done: number; reward: number } | null;
  notice: string | null;
}

export function liveViewingViewOf(s: LiveViewingSnapshot): LiveViewingView {
  const room = s.context.room;
  const frontStatus = frontStatusOf(s);
  return {
    frontStatus,
    video: videoStateOf(s),
    failed: s.matches('failed'),
    hostUserId: s.context.hostUserId,
    hostNickname: room?.nickname ?? '',
    hostIcon: room?.icon ?? null,
    title: room?.title ?? '',
    canCallHost: frontStatus === LiveFrontStatus.live && room?.privateCallOpen === true,
    giftTask: room?.giftTask ?? null,
    notice: s.context.notice,
  };
}

/** Equal views render the same (for useSelector's compare). */
export const sameViewingView = (a: LiveViewingView, b: LiveViewingView): boolean =>
  (Object.keys(a) as (keyof LiveViewingView)[]).every((k) => a[k] === b[k]);

export const selectViewingChat = (s: LiveViewingSnapshot | undefined) => s?.children.chat as LiveChatRef | undefined;
export const selectViewingGiftList = (s: LiveViewingSnapshot | undefined) =>
  s?.children.giftList as ActorRefFrom<GiftListMachine> | undefined;
/** The gift panel's sending (SPEC §5 quantity 1–99; the balance the server last said). */
export const selectViewingGifting = (s: LiveViewingSnapshot | undefined) =>
  s?.children.gifting as ActorRefFrom<GiftingMachine> | undefined;
