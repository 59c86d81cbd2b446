/**
 * Generated-path tests of watching a live room (SPEC §4 viewing front status 1 / 2 / 3 / 5,
 * host leaving and coming back, the anchor's exit; §2 a private call when the room allows
 * it): every path is replayed on the machine composed over manual fakes of the live API, the
 * room's media, the chat room and the gift API (nothing answers until the path says so), with
 * invariants at each state: the front status, the children of the room, the listeners left on
 * the fake ports (none once out of the room), and what leaving left.
 */
import { expect } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { FakeChatroomNetwork, FakeChatroomPort } from '../ports/chatroom.fake';
import { FakeLiveApi, FakeLiveMedia, FakeLiveMediaNetwork, FakeLiveNetwork } from '../ports/live.fake';
import type { LiveRoom } from '../ports/live.port';
import { LiveApiError } from '../ports/live.port';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { manualGiftApi } from '../testing/realtime';
import { composeLiveViewing } from './live-viewing.actors';
import { LiveFrontStatus, TEXT_JOIN_FAILED, TEXT_PRIVATE_CALL_CLOSED, liveViewingMachine } from './live-viewing.machine';
import type { LiveViewingContext, LiveViewingEmitted, LiveViewingInput } from './live-viewing.machine';
import { frontStatusOf, selectViewingChat, videoStateOf } from './live-viewing.selectors';

const HOST = 100001;
const room = (over: Partial<LiveRoom> = {}): LiveRoom => ({
  userId: HOST, yxAccid: 'yx-host', nickname: 'Sofia', title: 'Evening', agoraChannelId: 'live-ch', yxRoomId: 'room-1',
  joinNum: 3, privateCallOpen: true, wishlist: [], userStatus: 0, liveRoomState: 0, isBlockUser: false, whoBlock: 0, ...over,
});

const done = (id: string, output?: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error });
const media = (type: string): AnyEventObject => ({ type: 'media.event', event: { type } });

const samples: AnyEventObject[] = [
  done('join', room()), done('join', room({ privateCallOpen: false, title: 'closed' })),
  done('join', room({ userStatus: 1, title: 'in call' })), done('join', room({ liveRoomState: 1, title: 'ended' })),
  fail('join', new LiveApiError(1000, 'This host has no live room.')), fail('join', new Error('network')),
  done('watch'), fail('watch', new Error('no media')), done('leave'),
  media('firstRemoteFrame'), media('hostLeft'), media('hostJoined'), media('connectionLost'),
  done('chat', { reason: 'roomClosed' }),
  { type: 'live.leave' }, { type: 'live.retry' }, { type: 'video.retry' }, { type: 'live.privateCall', online: true },
  { type: 'room.privateCallChanged', open: false }, { type: 'room.privateCallChanged', open: true },
];

const input: LiveViewingInput = {
  hostUserId: HOST,
  entry: { account: 'yx-me', token: 'im-me', nick: 'Me', ext: { isVip: false, isNewUser: false, userLevel: 2 } },
};

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const api = new FakeLiveApi(new FakeLiveNetwork(), 7, 'manual');
  const liveMedia = new FakeLiveMedia(new FakeLiveMediaNetwork(), 'manual');
  const chatroom = new FakeChatroomPort(new FakeChatroomNetwork(), 'manual');
  const gifts = manualGiftApi(new PendingCalls());
  const actor = createActor(composeLiveViewing({ api, media: liveMedia, chatroom, gifts }), { input, clock: new SimulatedClock(), inspect });
  const emitted: LiveViewingEmitted[] = [];
  actor.on('*', (e) => emitted.push(e as LiveViewingEmitted));
  actor.start();
  await flush();
  expect(api.pending.argsOf('join')).toEqual([[HOST]]);

  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const before = actor.getSnapshot();
    const emittedBefore = emitted.length;
    if (e.type === 'xstate.done.actor.chat') {
      chatroom.emit('room-1', { type: 'closed', reason: 'roomClosed' });
    } else if (e.type === 'xstate.done.actor.leave') {
      // Best effort: a chat room that cannot be left does not keep the viewer in.
      if (before.context.room) chatroom.pending.next('leave').reject(new Error('gone'));
      liveMedia.pending.next('leave').resolve(undefined);
      api.pending.next('leave').resolve(undefined);
    } else if (e.type.startsWith('xstate.done.actor.') || e.type.startsWith('xstate.error.actor.')) {
      const id = e.type.split('.').slice(3).join('.');
      const call = id === 'watch' ? liveMedia.pending.next('watch') : api.pending.next(id);
      if (e.type.startsWith('xstate.done')) call.resolve(e.output);
      else call.reject(e.error);
    } else if (e.type === 'media.event') {
      liveMedia.emit(e.event);
    } else if (e.type === 'room.privateCallChanged') {
      // As the server tells it: a notice from the host in the room's chat (the chat hands it up).
      chatroom.emit('room-1', {
        type: 'message', message: { idServer: `pc-${emitted.length}-${String(e.open)}`, roomId: 'room-1', from: 'yx-host', fromNick: '', attach: { privateCallOpen: e.open }, fromServer: true, time: 1 },
      });
    } else {
      actor.send(e as never);
    }
    await flush();

    const snapshot = actor.getSnapshot();
    const ctx: LiveViewingContext = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    const inRoom = snapshot.matches('inRoom');
    // SPEC §4 front status: loading until joined; ended room → live end; host in a call → calling; otherwise live.
    const status = frontStatusOf(snapshot);
    if (snapshot.matches('joining') || snapshot.matches('failed')) expect(status).toBe(LiveFrontStatus.loading);
    if (e.type === 'xstate.done.actor.join') {
      const r = e.output as LiveRoom;
      expect(status).toBe(r.liveRoomState === 1 ? LiveFrontStatus.liveEnd : r.userStatus === 1 ? LiveFrontStatus.calling : LiveFrontStatus.live);
      if (inRoom) expect(liveMedia.pending.argsOf('watch').at(-1)).toEqual(['live-ch', 'yx-me']);
    }
    if (e.type === 'xstate.error.actor.join') expect(ctx.notice).toBe(e.error instanceof LiveApiError ? e.error.message : TEXT_JOIN_FAILED);
    // The host leaving the channel shows calling; coming back, live.
    if (inRoom && e.type === 'media.event' && e.event.type === 'hostLeft') expect(status).toBe(LiveFrontStatus.calling);
    if (inRoom && e.type === 'media.event' && e.event.type === 'hostJoined') expect(status).toBe(LiveFrontStatus.live);
    if (inRoom && e.type === 'media.event' && e.event.type === 'connectionLost') expect(videoStateOf(snapshot)).toBe('lost');
    if (e.type === 'xstate.done.actor.chat') expect(status).toBe(LiveFrontStatus.liveEnd);
    if (snapshot.matches('ending') || snapshot.matches('over')) expect(status).toBe(LiveFrontStatus.liveEnd);
    // The room's children run exactly while in the room; the ports are heard exactly then.
    for (const id of ['chat', 'giftList', 'gifting']) expect(Boolean(snapshot.children[id])).toBe(inRoom);
    expect(liveMedia.listenerCount).toBe(inRoom ? 1 : 0);
    expect(chatroom.listenerCount()).toBe(inRoom ? 1 : 0);
    if (inRoom && !before.matches('inRoom')) {
      const chat = selectViewingChat(snapshot)!.getSnapshot().context;
      expect(chat).toMatchObject({ roomId: 'room-1', hostAccount: 'yx-host', joinNum: 3, entry: input.entry });
    }
    // The host's switch reaches the room (and is no chat line).
    if (e.type === 'room.privateCallChanged') {
      expect(ctx.room?.privateCallOpen).toBe(e.open);
      expect(selectViewingChat(snapshot)!.getSnapshot().context.records).toEqual(selectViewingChat(before)!.getSnapshot().context.records);
    }
    // A private call is asked of the owner only when the room takes them and the host is there.
    const asked = emitted.slice(emittedBefore).filter((x) => x.type === 'live.callHost');
    if (e.type === 'live.privateCall') {
      const allowed = before.matches({ inRoom: { stage: 'live' } }) && before.context.room?.privateCallOpen === true;
      expect(asked).toEqual(allowed ? [{ type: 'live.callHost', peer: { account: 'yx-host', userId: HOST, nickname: 'Sofia' }, online: true }] : []);
      if (!allowed && before.matches({ inRoom: { stage: 'live' } })) expect(ctx.notice).toBe(TEXT_PRIVATE_CALL_CLOSED);
    } else {
      expect(asked).toEqual([]);
    }
    // Leaving or an ended room lets go of chat room, media and the server's room.
    if ((snapshot.matches('over') || snapshot.matches('left')) && (before.matches('ending') || before.matches('leaving'))) {
      expect(liveMedia.pending.count('leave')).toBeGreaterThan(0);
      expect(api.pending.argsOf('leave').at(-1)).toEqual([HOST]);
      if (ctx.room) expect(chatroom.pending.argsOf('leave').at(-1)).toEqual(['room-1']);
    }
    if (snapshot.status === 'done') {
      expect(liveMedia.listenerCount + chatroom.listenerCount()).toBe(0);
      expect(Object.keys(snapshot.children)).toEqual([]);
    }
  }
  actor.stop();
  expect(liveMedia.listenerCount + chatroom.listenerCount()).toBe(0);
}

describeGeneratedPaths('liveViewing', liveViewingMachine, {
  events: samples,
  inputs: { viewer: input },
  // Whether the room takes private calls decides what live.privateCall does.
  serializeContext: (c) => [(c as LiveViewingContext).room?.privateCallOpen ?? null],
  minPaths: 20,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});
