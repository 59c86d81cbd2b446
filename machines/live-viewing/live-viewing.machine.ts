/**
 * Watching a live room (SPEC §2 /liveRoom as a viewer, §3 Live info, §4 Live state: the
 * viewing front status 1 loading, 2 live, 3 live end, 5 calling; §9 history 5, audience 500).
 *
 *   joining ─room ended─▶ ending ─▶ over (live end) ─live.leave─▶ left
 *   joining ─ok─▶ inRoom.{stage: live ⇄ calling, video: connecting ─▶ waiting ⇄ playing, lost}
 *   joining ─error─▶ failed ─live.retry─▶ joining
 *   inRoom ─chat closed (room closed, host exited, kicked)─▶ ending ─▶ over
 *   inRoom | joining ─live.leave─▶ leaving ─▶ left (final)
 *
 * On join the host in a private call (userStatus 1) shows calling, otherwise live; the host
 * leaving the media channel shows calling and coming back live. In the room the chat runs
 * (live-chat.machine.ts: records, audience, highlights, gag, the gift animation queue), and
 * the gift panel: the gift list and gifting (a send in the room's scene: the server posts the
 * paid gift into the chat, which plays it on every screen). A private call with the host
 * (when the room allows it) is asked of the owner (`live.callHost`): the session's call.
 * Leaving leaves the chat room, the media and the server's room, each whatever the others do.
 */
import { assign, emit, fromCallback, fromPromise } from 'xstate';
import { setup } from '../setup';
import { giftListMachine } from '../gift-list/gift-list.machine';
import { giftingMachine } from '../gifting/gifting.machine';
import { liveChatMachine } from '../live-chat/live-chat.machine';
import { LiveApiError } from '../ports/live.port';
import type { LiveMediaEvent, LiveRoom } from '../ports/live.port';
import {
  LiveHostStatus, LiveRoomState, TEXT_JOIN_FAILED, TEXT_PRIVATE_CALL_CLOSED, roomOf,
} from './live-viewing.types';
import type { LiveViewingContext, LiveViewingEmitted, LiveViewingEvent, LiveViewingInput } from './live-viewing.types';

export * from './live-viewing.types';

export const liveViewingMachine = setup({
  types: {
    input: {} as LiveViewingInput,
    context: {} as LiveViewingContext,
    events: {} as LiveViewingEvent,
    emitted: {} as LiveViewingEmitted,
  },
  actors: {
    /** getRoomAndJoinRoom. */
    join: fromPromise<LiveRoom, number>(() => Promise.reject(new Error('not provided'))),
    /** Joins the media channel as audience. */
    watch: fromPromise<void, { channelId: string; account: string }>(() => Promise.reject(new Error('not provided'))),
    /** Leaves the chat room, the media channel and the server's room, each best effort: it never fails. */
    leave: fromPromise<void, { roomId: string | null; hostUserId: number }>(() => Promise.resolve()),
    /** The room's media events while in the room. */
    media: fromCallback<LiveViewingEvent>(() => () => {}),
    chat: liveChatMachine,
    giftList: giftListMachine,
    gifting: giftingMachine,
  },
  guards: {
    roomEnded: ({ context }) => context.room?.liveRoomState === LiveRoomState.ended,
    hostInCall: ({ context }) => context.room?.userStatus === LiveHostStatus.inCall,
    privateCallOpen: ({ context }) => context.room?.privateCallOpen === true,
    media: ({ event }, type: LiveMediaEvent['type']) => event.type === 'media.event' && event.event.type === type,
  },
  actions: {
    setRoom: assign({ room: (_, room: LiveRoom) => roomOf(room), notice: null }),
    notify: assign({ notice: (_, text: string | null) => text }),
    setPrivateCall: assign({ room: ({ context }, open: boolean) => (context.room ? { ...context.room, privateCallOpen: open } : null) }),
    /** What the owner hears of (the session turns it into its events). */
    report: emit((_, params: LiveViewingEmitted) => params),
  },
}).createMachine({
  id: 'liveViewing',
  context: ({ input }) => ({ ...input, room: null, notice: null }),
  initial: 'joining',
  states: {
    joining: {
      invoke: {
        id: 'join',
        src: 'join',
        input: ({ context }) => context.hostUserId,
        onDone: { target: 'arriving', actions: { type: 'setRoom', params: ({ event }) => event.output } },
        // The server's refusal is shown as it says it (SPEC §8 other codes); anything else in general words.
        onError: {
          target: 'failed',
          actions: { type: 'notify', params: ({ event }) => (event.error instanceof LiveApiError && event.error.message ? event.error.message : TEXT_JOIN_FAILED) },
        },
      },
      on: { 'live.leave': 'leaving' },
    },
    /** SPEC §4: room state 1 means ended. */
    arriving: {
      always: [{ guard: 'roomEnded', target: 'ending' }, { target: 'inRoom' }],
    },
    failed: {
      on: { 'live.retry': 'joining', 'live.leave': 'left' },
    },
    inRoom: {
      type: 'parallel',
      invoke: [
        { id: 'media', src: 'media' },
        {
          id: 'chat',
          src: 'chat',
          input: ({ context }) => {
            const room = context.room!;
            return {
              roomId: room.yxRoomId, entry: context.entry, hostAccount: room.yxAccid, whoBlock: room.whoBlock,
              joinNum: room.joinNum, wishlist: room.wishlist,
            };
          },
          // The room closed, the host exited or this viewer was removed: the live is over here.
          onDone: 'ending',
        },
        { id: 'giftList', src: 'giftList' },
        {
          id: 'gifting',
          src: 'gifting',
          // A gift in the room's scene: its chat room stands where a call's channel would.
          input: ({ context }) => ({ channelId: context.room?.yxRoomId ?? '', toUserId: context.room?.userId ?? 0, balance: null }),
        },
      ],
      on: {
        'live.leave': '#liveViewing.leaving',
        'room.privateCallChanged': { actions: { type: 'setPrivateCall', params: ({ event }) => event.open } },
      },
      states: {
        stage: {
          initial: 'choosing',
          states: {
            choosing: { always: [{ guard: 'hostInCall', target: 'calling' }, { target: 'live' }] },
            live: {
              on: {
                'media.event': { guard: { type: 'media', params: 'hostLeft' }, target: 'calling' },
                'live.privateCall': [
                  {
                    guard: 'privateCallOpen',
                    actions: {
                      type: 'report',
                      params: ({ context, event }) => {
                        const room = context.room!;
                        return {
                          type: 'live.callHost' as const,
                          peer: { account: room.yxAccid, userId: room.userId, nickname: room.nickname, ...(room.icon ? { icon: room.icon } : {}) },
                          online: event.online,
                        };
                      },
                    },
                  },
                  { actions: { type: 'notify', params: TEXT_PRIVATE_CALL_CLOSED } },
                ],
              },
            },
            /** The host is in a private call (out of the media channel). */
            calling: {
              on: { 'media.event': { guard: { type: 'media', params: 'hostJoined' }, target: 'live' } },
            },
          },
        },
        video: {
          initial: 'connecting',
          on: { 'media.event': { guard: { type: 'media', params: 'connectionLost' }, target: '.lost' } },
          states: {
            connecting: {
              invoke: {
                id: 'watch',
                src: 'watch',
                input: ({ context }) => ({ channelId: context.room?.agoraChannelId ?? '', account: context.entry.account }),
                onDone: 'waiting',
                onError: 'lost',
              },
              on: { 'media.event': { guard: { type: 'media', params: 'firstRemoteFrame' }, target: 'playing' } },
            },
            /** In the channel, no picture yet (or the host left it). */
            waiting: {
              on: { 'media.event': { guard: { type: 'media', params: 'firstRemoteFrame' }, target: 'playing' } },
            },
            /** SPEC: seeing is a decoded frame. */
            playing: {
              on: { 'media.event': { guard: { type: 'media', params: 'hostLeft' }, target: 'waiting' } },
            },
            lost: {
              on: { 'video.retry': 'connecting' },
            },
          },
        },
      },
    },
    /** The live ended: the room's resources are let go; the live-end view stays until the viewer leaves. */
    ending: {
      invoke: {
        id: 'leave',
        src: 'leave',
        input: ({ context }) => ({ roomId: context.room?.yxRoomId ?? null, hostUserId: context.hostUserId }),
        onDone: 'over',
      },
      on: { 'live.leave': 'leaving' },
    },
    over: {
      on: { 'live.leave': 'left' },
    },
    leaving: {
      invoke: {
        id: 'leave',
        src: 'leave',
        input: ({ context }) => ({ roomId: context.room?.yxRoomId ?? null, hostUserId: context.hostUserId }),
        onDone: 'left',
      },
    },
    left: { type: 'final' },
  },
});

export type LiveViewingMachine = typeof liveViewingMachine;
