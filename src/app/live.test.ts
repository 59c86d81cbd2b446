/** The live API over the HTTP contract: SPEC §3 Live info mapped onto the port, refusals with the server's text. */
import { describe, expect, it } from 'vitest';
import { LiveApiError } from '../../machines/ports/live.port';
import type { ApiClient } from '../api/client';
import * as contract from '../api/contract/live';
import type { HostedLive } from '../api/contract/live';
import { ApiError } from '../api/outcome';
import { httpLiveApi } from './live';

function clientAnswering(answer: (path: string, body: unknown) => unknown): { api: ApiClient; seen: [string, unknown][] } {
  const seen: [string, unknown][] = [];
  const api = {
    call: () => Promise.reject(new Error('not used')),
    data: async (endpoint: { path: string }, body: unknown) => {
      seen.push([endpoint.path, body]);
      return answer(endpoint.path, body);
    },
  } as unknown as ApiClient;
  return { api, seen };
}

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
    const { api, seen } = clientAnswering(() => hosted);
    const room = await httpLiveApi(api).begin({ title: 'Hi', privateCallOpen: true });
    expect(seen).toEqual([[contract.beginLiveRoom.path, { title: 'Hi', privateCallOpen: true }]]);
    expect(room).toEqual({
      userId: 7, yxAccid: 'yx-host', nickname: 'Sofia', icon: '/avatars/h.svg', title: 'Hi', agoraChannelId: 'live-7', yxRoomId: 'room-7',
      joinNum: 3, privateCallOpen: true, wishlist: [{ giftId: 1, giftNum: 10, compelteGiftNum: 4, ratio: 0.4, completed: false }],
      userStatus: 0, liveRoomState: 0, isBlockUser: false, whoBlock: 2, giftTask: { target: 1000, done: 40, reward: 100 }, heartbeatIntervalMs: 1000,
    });
  });

  it('joins and leaves by the host id, beats with the room id, ends with the stats', async () => {
    const { api, seen } = clientAnswering((path) => {
      if (path === contract.liveHeartBeatV2.path) return { ended: true, heartbeatIntervalMs: 1000, heartbeatWindowMs: 3000 };
      if (path === contract.endLiveRoom.path) {
        return { agoraChannelId: 'live-7', yxRoomId: 'room-7', liveRoomState: 1, startTime: 1, endTime: 2, durationSec: 61, viewers: 2, gifts: 5, income: 50, endCause: 'host' };
      }
      if (path === contract.leaveLiveRoom.path) return { left: true };
      const { heartbeatIntervalMs: _i, heartbeatWindowMs: _w, ...info } = hosted;
      return info;
    });
    const live = httpLiveApi(api);
    expect((await live.join(7)).heartbeatIntervalMs).toBeUndefined();
    await live.leave(7);
    await expect(live.heartbeat('room-7')).resolves.toEqual({ ended: true });
    await expect(live.end()).resolves.toEqual({ durationSec: 61, viewers: 2, gifts: 5, income: 50 });
    expect(seen.map(([path, body]) => [path, body])).toEqual([
      [contract.getRoomAndJoinRoom.path, { searchValue: 7 }],
      [contract.leaveLiveRoom.path, { searchValue: 7 }],
      [contract.liveHeartBeatV2.path, { yxRoomId: 'room-7' }],
      [contract.endLiveRoom.path, {}],
    ]);
  });

  it('a refusal keeps the server text and code; a permission answered "not allowed" is a refusal too', async () => {
    const refusing = clientAnswering(() => { throw new ApiError('code', contract.TEXT_LIVE_HOSTS_ONLY, { code: '1000' }); });
    const error = await httpLiveApi(refusing.api).checkPermission().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveApiError);
    expect(error).toMatchObject({ code: 1000, message: contract.TEXT_LIVE_HOSTS_ONLY });
    const notAllowed = clientAnswering(() => ({ allowed: false, living: false }));
    await expect(httpLiveApi(notAllowed.api).checkPermission()).rejects.toBeInstanceOf(LiveApiError);
    const allowed = clientAnswering(() => ({ allowed: true, living: false }));
    await expect(httpLiveApi(allowed.api).checkPermission()).resolves.toBeUndefined();
  });
});
