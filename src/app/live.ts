/**
 * The live API of the live machines (machines/ports/live.port.ts) over the HTTP contract
 * (src/api/contract/live.ts): refusals become LiveApiErrors with the server's text, shown as
 * they come. Loaded with the live room screens, not with the first screen.
 */
import { LiveApiError } from '../../machines/ports/live.port';
import type { LiveApiPort, LiveRoom, LiveStats, WhoBlock } from '../../machines/ports/live.port';
import type { ApiClient } from '../api/client';
import {
  beginLiveRoom, checkLiveBroadcastPermission, endLiveRoom, getRoomAndJoinRoom, leaveLiveRoom, liveHeartBeatV2,
  updatePrivateCall,
} from '../api/contract/live';
import type { HostedLive, LiveInfo, LiveStat } from '../api/contract/live';
import { ApiError } from '../api/outcome';

async function mapped<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof LiveApiError) throw error;
    const code = error instanceof ApiError ? Number(error.detail.code) : -1;
    throw new LiveApiError(Number.isFinite(code) ? code : -1, error instanceof Error ? error.message : String(error));
  }
}

/** SPEC §3 Live info as the port carries it (the server's cover and start time stay with the contract). */
export function liveRoomOf(info: LiveInfo | HostedLive): LiveRoom {
  return {
    userId: info.userId,
    yxAccid: info.yxAccid,
    nickname: info.nickname,
    icon: info.icon,
    title: info.title,
    agoraChannelId: info.agoraChannelId,
    yxRoomId: info.yxRoomId,
    joinNum: info.joinNum,
    privateCallOpen: info.privateCallOpen,
    wishlist: info.wishlist.map(({ giftId, giftNum, compelteGiftNum, ratio, completed }) => ({ giftId, giftNum, compelteGiftNum, ratio, completed })),
    userStatus: info.userStatus,
    liveRoomState: info.liveRoomState,
    isBlockUser: info.isBlockUser,
    whoBlock: info.whoBlock as WhoBlock,
    giftTask: { target: info.giftTask.target, done: info.giftTask.done, reward: info.giftTask.reward },
    ...('heartbeatIntervalMs' in info ? { heartbeatIntervalMs: info.heartbeatIntervalMs } : {}),
  };
}

const statsOf = (stat: LiveStat): LiveStats => ({
  durationSec: stat.durationSec, viewers: stat.viewers, gifts: stat.gifts, income: stat.income,
});

export function httpLiveApi(api: ApiClient): LiveApiPort {
  return {
    checkPermission: () => mapped(async () => {
      const { allowed } = await api.data(checkLiveBroadcastPermission, {}, { silent: true });
      if (!allowed) throw new LiveApiError(-1, 'You may not go live now.');
    }),
    begin: (setting) => mapped(async () => liveRoomOf(await api.data(beginLiveRoom, {
      title: setting.title, privateCallOpen: setting.privateCallOpen, ...(setting.cover ? { cover: setting.cover } : {}),
    }, { silent: true }))),
    heartbeat: (roomId) => mapped(async () => {
      const { ended } = await api.data(liveHeartBeatV2, { yxRoomId: roomId }, { silent: true });
      return { ended };
    }),
    setPrivateCall: (open) => mapped(async () => {
      await api.data(updatePrivateCall, { privateCallOpen: open }, { silent: true });
    }),
    end: () => mapped(async () => statsOf(await api.data(endLiveRoom, {}, { silent: true }))),
    join: (hostUserId) => mapped(async () => liveRoomOf(await api.data(getRoomAndJoinRoom, { searchValue: hostUserId }, { silent: true }))),
    leave: (hostUserId) => mapped(async () => {
      await api.data(leaveLiveRoom, { searchValue: hostUserId }, { silent: true });
    }),
  };
}
