/**
 * The world of the live screen tests: the in-memory live service, media channels and chat
 * rooms (machines/ports fakes) with a host and viewers, the live machines composed over them
 * on a simulated clock, and the screen services with fake streams.
 */
import { SimulatedClock, createActor } from 'xstate';
import { composeLiveHosting } from '../../../machines/live-hosting/live-hosting.actors';
import type { LiveSetting } from '../../../machines/live-hosting/live-hosting.types';
import { composeLiveViewing } from '../../../machines/live-viewing/live-viewing.actors';
import { composeLiveRooms } from '../../../machines/session/live-rooms.actors';
import { FakeChatroomNetwork, FakeChatroomPort } from '../../../machines/ports/chatroom.fake';
import type { CallMediaView } from '../../../machines/ports/call.media';
import type { GiftApiPort, GiftCategory, GiftItem } from '../../../machines/ports/gift.port';
import { FakeLiveApi, FakeLiveMedia, FakeLiveMediaNetwork, FakeLiveNetwork } from '../../../machines/ports/live.fake';
import { fakeServices } from '../../app/services.fake';
import type { FakeHandler, FakeServices } from '../../app/services.fake';

export const rose: GiftItem = { id: 1, name: 'Rose', price: 1, smallImg: '/g/rose.svg', icon: '/g/rose.svg' };
export const ring: GiftItem = { id: 11, name: 'Ring', price: 520, smallImg: '/g/ring.svg', icon: '/g/ring.svg' };
export const categories: GiftCategory[] = [{ id: 1, name: 'Popular', gifts: [rose, ring] }];

export interface Person { userId: number; account: string; nick: string; isHost: boolean; ext?: Record<string, unknown> }

export const HOST: Person = { userId: 1, account: 'yx-host', nick: 'Sofia', isHost: true };
export const ALICE: Person = { userId: 2, account: 'yx-alice', nick: 'Alice', isHost: false, ext: { isVip: true, isNewUser: false, userLevel: 3 } };
export const BOB: Person = { userId: 3, account: 'yx-bob', nick: 'Bob', isHost: false, ext: { isVip: false, isNewUser: true, userLevel: 0 } };

/** A stream stand-in (jsdom has no MediaStream); what the video shows is only its presence. */
export function fakeStreams(): CallMediaView {
  const stream = {} as MediaStream;
  return { local: () => stream, remote: () => stream, subscribe: () => () => {} };
}

export function liveWorld() {
  const chatrooms = new FakeChatroomNetwork();
  const lives = new FakeLiveNetwork(chatrooms);
  const channels = new FakeLiveMediaNetwork();
  const clock = new SimulatedClock();
  for (const p of [HOST, ALICE, BOB]) {
    lives.register({ userId: p.userId, account: p.account, nickname: p.nick, isHost: p.isHost });
    chatrooms.register(p.account, `im-${p.account}`);
  }
  const entry = (p: Person) => ({ account: p.account, token: `im-${p.account}`, nick: p.nick, ...(p.ext ? { ext: p.ext } : {}) });
  const sent: Parameters<GiftApiPort['send']>[0][] = [];

  /** Gifts as the server sends them in a room: paid, counted, then posted into the room's chat from the sender. */
  const giftsOf = (p: Person): GiftApiPort => ({
    list: async () => categories,
    send: async (request) => {
      sent.push(request);
      const gift = [rose, ring].find((g) => g.id === request.giftId)!;
      lives.gift(HOST.userId, request.giftId, request.giftNum, gift.price * request.giftNum);
      chatrooms.post(request.yxRoomId!, {
        from: p.account, fromNick: p.nick,
        attach: { giftId: gift.id, giftName: gift.name, giftImg: gift.smallImg, giftNum: request.giftNum, sendId: sent.length, ...p.ext },
      });
      return { balance: 100, value: gift.price * request.giftNum };
    },
    askFor: async () => ({ askId: 1 }),
    refuseAsk: async () => undefined,
  });

  const viewer = (p: Person, hostUserId = HOST.userId) => {
    const ports = { api: new FakeLiveApi(lives, p.userId), media: new FakeLiveMedia(channels), chatroom: new FakeChatroomPort(chatrooms), gifts: giftsOf(p) };
    const actor = createActor(composeLiveViewing(ports), { input: { hostUserId, entry: entry(p) }, clock }).start();
    return { actor, ports };
  };

  const host = (setting: LiveSetting = { title: 'Evening', privateCallOpen: true }, p: Person = HOST) => {
    const ports = { api: new FakeLiveApi(lives, p.userId), media: new FakeLiveMedia(channels), chatroom: new FakeChatroomPort(chatrooms) };
    const actor = createActor(composeLiveHosting(ports), { input: { setting, entry: entry(p) }, clock }).start();
    return { actor, ports };
  };

  /** The session's live rooms (as the session runs them) for `p`, over the same service; `mode` of the live API. */
  const rooms = (p: Person = HOST, mode: 'auto' | 'manual' = 'auto') => {
    const ports = { api: new FakeLiveApi(lives, p.userId, mode), media: new FakeLiveMedia(channels), chatroom: new FakeChatroomPort(chatrooms), gifts: giftsOf(p) };
    const actor = createActor(composeLiveRooms(ports), { input: { entry: entry(p) }, clock }).start();
    return { actor, ports };
  };

  /** A host already live with chat and camera (for the viewer's screen), outside any machine. */
  const liveHost = async (setting = { title: 'Evening', privateCallOpen: true }) => {
    const room = lives.begin(HOST.userId, setting);
    const chat = new FakeChatroomPort(chatrooms);
    const media = new FakeLiveMedia(channels);
    await chat.enter(room.yxRoomId, entry(HOST));
    await media.publish(room.agoraChannelId, HOST.account);
    return { room, chat, media };
  };

  const services = (handlers: Record<string, FakeHandler> = {}): FakeServices => ({ ...fakeServices(handlers), liveMedia: fakeStreams() });

  return { chatrooms, lives, channels, clock, sent, entry, viewer, host, rooms, liveHost, services };
}
