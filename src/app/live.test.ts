/** The live API over the HTTP contract: SPEC §3 Live info mapped onto the port, refusals with the server's text. */
import { describe, expect, it } from 'vitest';
import { LiveApiError } from '../../machines/ports/live.port';
import * as contract from '../api/contract/live';
import type { HostedLive } from '../api/contract/live';
import { httpLiveApi } from './live';
import { fakeServices, refusal } from './services.fake';

const hosted: HostedLive = {
  userId: 7, yxAccid: 'yx-host', nickname: 'Sofia', icon: '/avatars/h.svg', title: 'Hi', cover: null,
  agoraChannelId: 'live-7', yxRoomId: 'room-7', joinNum: 3, privateCallOpen: true,
  wishlist: [{ giftId: 1, giftNum: 10, compelteGiftNum: 4, ratio: 0.4, completed: false, giftName: 'Rose', giftImg: '/g.svg', giftPrice: 1 }],
  userStatus: 0, liveRoomState: 0, isBlockUser: false, whoBlock: 2,
  giftTask: { target: 1000, done: 40, reward: 100, completed: false }, startTime: 1,
  heartbeatIntervalMs: 1000, heartbeatWindowMs: 3000,
};

describe('live API adapter', () => {
  it('going live sends the setting and answers the room as the port carries it, heartbeat interval included', async () => {
    const { api, requests } = fakeServices({ [contract.beginLiveRoom.path]: () => hosted });
    const room = await httpLiveApi(api).begin({ title: 'Hi', privateCallOpen: true });
    expect(requests).toEqual([{ path: contract.beginLiveRoom.path, body: { title: 'Hi', privateCallOpen: true } }]);
    expect(room).toEqual({
      userId: 7, yxAccid: 'yx-host', nickname: 'Sofia', icon: '/avatars/h.svg', title: 'Hi', agoraChannelId: 'live-7', yxRoomId: 'room-7',
      joinNum: 3, privateCallOpen: true, wishlist: [{ giftId: 1, giftNum: 10, compelteGiftNum: 4, ratio: 0.4, completed: false }],
      userStatus: 0, liveRoomState: 0, isBlockUser: false, whoBlock: 2, giftTask: { target: 1000, done: 40, reward: 100 }, heartbeatIntervalMs: 1000,
    });
  });

  it('joins and leaves by the host id, beats with the room id, ends with the stats', async () => {
    const { heartbeatIntervalMs: _i, heartbeatWindowMs: _w, ...info } = hosted;
    const { api, requests } = fakeServices({
      [contract.liveHeartBeatV2.path]: () => ({ ended: true, heartbeatIntervalMs: 1000, heartbeatWindowMs: 3000 }),
      [contract.endLiveRoom.path]: () => ({
        agoraChannelId: 'live-7', yxRoomId: 'room-7', liveRoomState: 1, startTime: 1, endTime: 2, durationSec: 61, viewers: 2, gifts: 5, income: 50, endCause: 'host',
      }),
      [contract.leaveLiveRoom.path]: () => ({ left: true }),
      [contract.getRoomAndJoinRoom.path]: () => info,
    });
    const live = httpLiveApi(api);
    expect((await live.join(7)).heartbeatIntervalMs).toBeUndefined();
    await live.leave(7);
    await expect(live.heartbeat('room-7')).resolves.toEqual({ ended: true });
    await expect(live.end()).resolves.toEqual({ durationSec: 61, viewers: 2, gifts: 5, income: 50 });
    expect(requests).toEqual([
      { path: contract.getRoomAndJoinRoom.path, body: { searchValue: 7 } },
      { path: contract.leaveLiveRoom.path, body: { searchValue: 7 } },
      { path: contract.liveHeartBeatV2.path, body: { yxRoomId: 'room-7' } },
      { path: contract.endLiveRoom.path, body: {} },
    ]);
  });

  it('a refusal keeps the server text and code; a permission answered "not allowed" is a refusal too', async () => {
    const refusing = fakeServices({ [contract.checkLiveBroadcastPermission.path]: () => { throw refusal(contract.TEXT_LIVE_HOSTS_ONLY); } });
    const error = await httpLiveApi(refusing.api).checkPermission().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveApiError);
    expect(error).toMatchObject({ code: 1000, message: contract.TEXT_LIVE_HOSTS_ONLY });
    const notAllowed = fakeServices({ [contract.checkLiveBroadcastPermission.path]: () => ({ allowed: false, living: false }) });
    await expect(httpLiveApi(notAllowed.api).checkPermission()).rejects.toBeInstanceOf(LiveApiError);
    const allowed = fakeServices({ [contract.checkLiveBroadcastPermission.path]: () => ({ allowed: true, living: false }) });
    await expect(httpLiveApi(allowed.api).checkPermission()).resolves.toBeUndefined();
  });
});
