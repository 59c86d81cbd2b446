/**
 * A live room's chat, for the host and for a viewer (SPEC §3 Live chat record, §4 Live state:
 * member enter, the anchor's exit, gag and ungag, gift animation queue; §6 gag and userLevel
 * highlights; §9 audience query 500, live history 5). A child of liveHosting and liveViewing
 * while they are in the room; the owner leaves the chat room after stopping it.
 *
 *   entering ─▶ loading (last 5 messages, audience up to 500) ─▶ ready.{sending: idle ⇄ sending, gagging: idle ⇄ gagging}
 *   entering ─error─▶ failed ─chat.retry─▶ entering
 *   anywhere ─room closed | kicked | (a viewer's) the host's exit─▶ closed (final, output: why)
 *
 * Lines, members and gags are heard from the moment the chat starts (`events`), so nothing said
 * while entering is lost; every record is read defensively (live-chat.types.ts) and kept once
 * (by server id: a gift the server posts reaches its sender too). A gift line (one the server
 * posted: gift fields in a member's own message make no gift) also goes to the gift animation
 * queue and counts toward the wishlist; a member above level 0 gets an
 * entering-room highlight. A muted viewer's line is refused with TEXT_MUTED; only the host gags.
 */
import { assign, enqueueActions, fromCallback, fromPromise } from 'xstate';
import { setup } from '../setup';
import { giftQueueMachine } from '../gift-queue/gift-queue.machine';
import type { ChatroomEntry, ChatroomEvent, ChatroomMember, ChatroomMessage } from '../ports/chatroom.port';
import type { LiveWish } from '../ports/live.port';
import { enterHighlightsMachine } from './enter-highlights.machine';
import {
  AUDIENCE_LIMIT, CHATROOM_MUTED_CODE, MAX_CHAT_TEXT, MAX_RECORDS, TEXT_GAG_FAILED, TEXT_MUTED, TEXT_SEND_FAILED,
  WHO_BLOCK_AFTER_GAG, WHO_BLOCK_AFTER_UNGAG, audienceMemberOf, highlightOf, isMuted, privateCallNoticeOf, progressWishlist,
  receivedGiftOf, recordOf,
} from './live-chat.types';
import type { LiveChatRecord, WhoBlock } from './live-chat.types';

export interface LiveChatInput {
  /** The chat room (LiveRoom.yxRoomId). */
  roomId: string;
  /** Who enters, with the profile every line of theirs carries (ext: isVip, isNewUser, userLevel). */
  entry: ChatroomEntry;
  /** The host's account: the host gags; a viewer's room ends when the host exits. */
  hostAccount: string;
  /** This member's whoBlock when the room was joined (the host's: 0). */
  whoBlock: WhoBlock;
  joinNum: number;
  wishlist: readonly LiveWish[];
}

export type LiveChatClosedReason = 'roomClosed' | 'kicked' | 'hostLeft';

export interface LiveChatContext extends LiveChatInput {
  /** Oldest first, at most MAX_RECORDS. */
  records: readonly LiveChatRecord[];
  audience: readonly ChatroomMember[];
  /** What the person is told about their last send or gag, if anything. */
  notice: string | null;
  closedBy: LiveChatClosedReason | null;
}

export type LiveChatEvent =
  | { type: 'chat.send'; text: string }
  /** The host gags or ungags a viewer. */
  | { type: 'chat.gag'; account: string; gagged: boolean }
  | { type: 'chat.retry' }
  | { type: 'room.message'; message: ChatroomMessage }
  | { type: 'room.memberEntered'; member: ChatroomMember }
  | { type: 'room.memberExited'; account: string }
  | { type: 'room.gagChanged'; account: string; gagged: boolean }
  | { type: 'room.closed'; reason: 'roomClosed' | 'kicked' };

export interface LiveChatOutput {
  reason: LiveChatClosedReason;
}

/** The port's events as the chat's. */
export function chatEventOf(event: ChatroomEvent): LiveChatEvent {
  switch (event.type) {
    case 'message': return { type: 'room.message', message: event.message };
    case 'memberEnter': return { type: 'room.memberEntered', member: event.member };
    case 'memberExit': return { type: 'room.memberExited', account: event.account };
    case 'gag': return { type: 'room.gagChanged', account: event.account, gagged: event.gagged };
    case 'closed': return { type: 'room.closed', reason: event.reason };
  }
}

const codeOf = (error: unknown): unknown => (error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined);
const withMember = (audience: readonly ChatroomMember[], member: ChatroomMember) =>
  [...audience.filter((m) => m.account !== member.account), member].slice(-AUDIENCE_LIMIT);
const withRecords = (records: readonly LiveChatRecord[], added: readonly LiveChatRecord[]) => {
  const keys = new Set(records.map((r) => r.key));
  const fresh = added.filter((r) => !keys.has(r.key) && keys.add(r.key));
  return [...records, ...fresh].sort((a, b) => a.time - b.time).slice(-MAX_RECORDS);
};

export const liveChatMachine = setup({
  types: {
    input: {} as LiveChatInput,
    context: {} as LiveChatContext,
    events: {} as LiveChatEvent,
    output: {} as LiveChatOutput,
  },
  actors: {
    enter: fromPromise<void, { roomId: string; entry: ChatroomEntry }>(() => Promise.reject(new Error('not provided'))),
    /** The last HISTORY_LIMIT messages (newest first, as the port gives them) and up to AUDIENCE_LIMIT members. */
    load: fromPromise<{ history: ChatroomMessage[]; members: ChatroomMember[] }, { roomId: string }>(
      () => Promise.reject(new Error('not provided')),
    ),
    send: fromPromise<ChatroomMessage, { roomId: string; text: string; attach: Record<string, unknown> }>(
      () => Promise.reject(new Error('not provided')),
    ),
    /** Answers whom it gagged or ungagged. */
    setGagged: fromPromise<{ account: string; gagged: boolean }, { roomId: string; account: string; gagged: boolean }>(
      () => Promise.reject(new Error('not provided')),
    ),
    /** The room's events while the chat runs. */
    events: fromCallback<LiveChatEvent, { roomId: string }>(() => () => {}),
    giftQueue: giftQueueMachine,
    highlights: enterHighlightsMachine,
  },
  guards: {
    isHost: ({ context }) => context.entry.account === context.hostAccount,
    muted: ({ context }) => isMuted(context.whoBlock),
    sendable: ({ event }) => event.type === 'chat.send' && event.text.trim() !== '' && event.text.trim().length <= MAX_CHAT_TEXT,
    /** The host gags others only. */
    gaggable: ({ context, event }) =>
      event.type === 'chat.gag' && context.entry.account === context.hostAccount && event.account !== context.entry.account,
    /** SPEC §4: the anchor's exit ends a viewer's room. */
    hostExited: ({ context, event }) =>
      event.type === 'room.memberExited' && event.account === context.hostAccount && context.entry.account !== context.hostAccount,
    mutedRefusal: ({ event }) => codeOf((event as { error?: unknown }).error) === CHATROOM_MUTED_CODE,
  },
  actions: {
    /** A line of the room: shown once; a gift also plays and counts toward the wishlist. */
    addMessage: enqueueActions(({ context, enqueue }, message: ChatroomMessage) => {
      // The host switched private calls: the room's owner keeps that, it is no chat line.
      const privateCallOpen = privateCallNoticeOf(message, context.hostAccount);
      if (privateCallOpen !== null) {
        enqueue.sendParent({ type: 'room.privateCallChanged', open: privateCallOpen });
        return;
      }
      const record = recordOf(message);
      if (!record || context.records.some((r) => r.key === record.key)) return;
      enqueue.assign({ records: withRecords(context.records, [record]) });
      if (record.giftImg === null && record.giftId === null) return;
      enqueue.assign({ wishlist: progressWishlist(context.wishlist, record.giftId, record.giftNum) });
      enqueue.sendTo('giftQueue', { type: 'gift.received', gift: receivedGiftOf(record) });
    }),
    memberEntered: enqueueActions(({ context, enqueue, event }) => {
      if (event.type !== 'room.memberEntered') return;
      const member = audienceMemberOf(event.member);
      // The audience is the viewers: the host (back after a dropped link) is not one.
      if (!member || member.account === context.hostAccount) return;
      enqueue.assign({ joinNum: context.joinNum + 1, audience: withMember(context.audience, member) });
      const highlight = highlightOf(event.member);
      if (highlight) enqueue.sendTo('highlights', { type: 'highlight.add', highlight });
    }),
    memberExited: assign({
      audience: ({ context, event }) => (event.type === 'room.memberExited' ? context.audience.filter((m) => m.account !== event.account) : context.audience),
    }),
    /** SPEC §4: a gag of this member moves whoBlock by the table; anyone's shows in the audience. */
    gagChanged: assign(({ context }, { account, gagged }: { account: string; gagged: boolean }) => {
      const audience = context.audience.map((m) => (m.account === account ? { ...m, gagged } : m));
      if (account !== context.entry.account) return { audience };
      return { audience, whoBlock: (gagged ? WHO_BLOCK_AFTER_GAG : WHO_BLOCK_AFTER_UNGAG)[context.whoBlock] };
    }),
    loaded: assign(({ context }, { history, members }: { history: ChatroomMessage[]; members: ChatroomMember[] }) => {
      const records = history.map(recordOf).filter((r): r is LiveChatRecord => r !== null);
      const loaded = members.map(audienceMemberOf).filter((m): m is ChatroomMember => m !== null && m.account !== context.hostAccount);
      // Members who entered while loading stay (once).
      const audience = context.audience.reduce(withMember, loaded.slice(0, AUDIENCE_LIMIT));
      return { records: withRecords(context.records, records), audience };
    }),
    notify: assign({ notice: (_, text: string | null) => text }),
    setClosed: assign({ closedBy: (_, reason: LiveChatClosedReason) => reason }),
  },
}).createMachine({
  id: 'liveChat',
  context: ({ input }) => ({ ...input, records: [], audience: [], notice: null, closedBy: null }),
  invoke: [
    { id: 'events', src: 'events', input: ({ context }) => ({ roomId: context.roomId }) },
    { id: 'giftQueue', src: 'giftQueue' },
    { id: 'highlights', src: 'highlights' },
  ],
  on: {
    'room.message': { actions: { type: 'addMessage', params: ({ event }) => event.message } },
    'room.memberEntered': { actions: 'memberEntered' },
    'room.memberExited': [
      { guard: 'hostExited', target: '.closed', actions: { type: 'setClosed', params: 'hostLeft' } },
      { actions: 'memberExited' },
    ],
    'room.gagChanged': { actions: { type: 'gagChanged', params: ({ event }) => event } },
    'room.closed': { target: '.closed', actions: { type: 'setClosed', params: ({ event }) => event.reason } },
  },
  initial: 'entering',
  states: {
    entering: {
      invoke: {
        id: 'enter',
        src: 'enter',
        input: ({ context }) => ({ roomId: context.roomId, entry: context.entry }),
        onDone: 'loading',
        onError: 'failed',
      },
    },
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ roomId: context.roomId }),
        onDone: { target: 'ready', actions: { type: 'loaded', params: ({ event }) => event.output } },
        // In the room all the same: what arrives from now on shows.
        onError: 'ready',
      },
    },
    ready: {
      type: 'parallel',
      states: {
        sending: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'chat.send': [
                  { guard: 'muted', actions: { type: 'notify', params: TEXT_MUTED } },
                  { guard: 'sendable', target: 'sending', actions: { type: 'notify', params: null } },
                ],
              },
            },
            sending: {
              invoke: {
                id: 'send',
                src: 'send',
                input: ({ context, event }) => ({
                  roomId: context.roomId,
                  text: event.type === 'chat.send' ? event.text.trim() : '',
                  attach: { ...(context.entry.ext ?? {}) },
                }),
                onDone: { target: 'idle', actions: { type: 'addMessage', params: ({ event }) => event.output } },
                onError: [
                  { guard: 'mutedRefusal', target: 'idle', actions: { type: 'notify', params: TEXT_MUTED } },
                  { target: 'idle', actions: { type: 'notify', params: TEXT_SEND_FAILED } },
                ],
              },
            },
          },
        },
        gagging: {
          initial: 'idle',
          states: {
            idle: {
              on: { 'chat.gag': { guard: 'gaggable', target: 'gagging', actions: { type: 'notify', params: null } } },
            },
            gagging: {
              invoke: {
                id: 'setGagged',
                src: 'setGagged',
                input: ({ context, event }) => ({
                  roomId: context.roomId,
                  account: event.type === 'chat.gag' ? event.account : '',
                  gagged: event.type === 'chat.gag' && event.gagged,
                }),
                // Shown at once; the room's own gag event, when it reaches the host too, changes nothing more.
                onDone: { target: 'idle', actions: { type: 'gagChanged', params: ({ event }) => event.output } },
                onError: { target: 'idle', actions: { type: 'notify', params: TEXT_GAG_FAILED } },
              },
            },
          },
        },
      },
    },
    failed: {
      on: { 'chat.retry': 'entering' },
    },
    closed: { type: 'final' },
  },
  output: ({ context }) => ({ reason: context.closedBy ?? 'roomClosed' }),
});

export type LiveChatMachine = typeof liveChatMachine;
