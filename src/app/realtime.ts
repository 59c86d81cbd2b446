/**
 * The realtime ports of the signed-in session. `VITE_REALTIME=local` (default) talks to the
 * reference server's hub; `production` uses NetEase IM, whose adapter and SDK load only
 * when chosen (the SDK itself only at the first login). Presence is a plain socket in both
 * (`VITE_PRESENCE_URL` points it elsewhere).
 */
import type { RealtimePorts } from '../../machines/session/session.actors';
import type { ImPort } from '../../machines/ports/im.port';
import { hubUrl } from '../adapters/hub.socket';
import { createLocalImPort } from '../adapters/im.local';
import { createLocalPresencePort } from '../adapters/presence.local';
import type { SessionCredentials } from '../adapters/session.http';
import type { ApiClient } from '../api/client';
import { readPins, writePins } from '../adapters/storage';
import {
  chat as chatContract, config as configContract, news as newsContract, privateMsg as privateMsgContract,
  realtime as realtimeContract,
} from '../api/contract';
import { ApiError } from '../api/outcome';
import * as callContract from '../api/contract/call';
import { getUserDetail } from '../api/contract/people';
import { CallApiError } from '../../machines/ports/call.port';
import type { CallApiPort } from '../../machines/ports/call.port';
import type { SignallingPort } from '../../machines/ports/signalling.port';
import { createLocalSignallingPort } from '../adapters/signalling.local';
import { createLocalChatroomPort } from '../adapters/chatroom.local';
import type { ChatroomPort } from '../../machines/ports/chatroom.port';
import { createRtcPort, rtcTokenFrom } from './rtc';
import type { CallMediaView, RtcAdapter } from '../../machines/ports/call.media';
import type { LiveMediaPort } from '../../machines/ports/live.port';
import { httpLiveApi } from './live';
import { createLiveMediaPort } from './liveMedia';
import type { TranslatorPort } from '../../machines/ports/translator.port';
import type { ChatProfile } from '../../machines/conversations/conversations.machine';
import { config } from './config';
import { TEXT_NOT_ENOUGH_DIAMONDS, httpGiftApi } from './gifts';

const { ConfigKey } = configContract;

async function imPort(): Promise<ImPort> {
  if (config.realtime !== 'production') return createLocalImPort({ url: hubUrl(realtimeContract.RealtimePath.im) });
  const [{ createNimImPort }, { loadNim }] = await Promise.all([
    import('../adapters/im.nim'),
    import('../adapters/im.nim.load'),
  ]);
  return createNimImPort({ appkey: config.nimAppKey, loadSdk: loadNim });
}

/** Live rooms' chat: the hub's chat rooms locally, NetEase's chat-room client in production (its SDK at the first entry). */
async function chatroomPort(api: ApiClient): Promise<ChatroomPort> {
  if (config.realtime !== 'production') return createLocalChatroomPort({ url: hubUrl(realtimeContract.RealtimePath.chatroom) });
  const [{ createNimChatroomPort }, { loadChatroom }] = await Promise.all([
    import('../adapters/chatroom.nim'),
    import('../adapters/chatroom.nim.load'),
  ]);
  return createNimChatroomPort({
    appkey: config.nimAppKey,
    loadSdk: loadChatroom,
    chatroomAddresses: (roomId) => api.data(realtimeContract.getChatRoomAddress, { searchValue: roomId }, { silent: true }),
  });
}

async function signallingPort(api: ApiClient): Promise<SignallingPort> {
  if (config.realtime !== 'production') return createLocalSignallingPort({ url: hubUrl(realtimeContract.RealtimePath.signal) });
  const [{ createRtmSignallingPort }, { loadRtm }] = await Promise.all([
    import('../adapters/signalling.rtm'),
    import('../adapters/signalling.rtm.load'),
  ]);
  return createRtmSignallingPort({
    appId: config.agoraAppId,
    loadSdk: loadRtm,
    fetchRtmToken: () => api.data(realtimeContract.getAgoraRtmToken, {}, { silent: true }),
  });
}

/** SPEC §7 call endpoints; createCall refusals become the call's own refusals (contract/call.ts). */
export function httpCallApi(api: ApiClient): CallApiPort {
  return {
    async createCall(request) {
      try {
        return await api.data(callContract.createCall, { beCallUserId: request.beCallUserId, callType: request.callType === 10 ? 10 : 0 }, { silent: true });
      } catch (error) {
        const code = error instanceof ApiError ? error.detail.code : undefined;
        const message = error instanceof Error ? error.message : String(error);
        if (code === callContract.CallRefusalCode.busy) throw new CallApiError('busy', message);
        if (code === callContract.CallRefusalCode.unavailable) throw new CallApiError('offline', message);
        if (code === callContract.CallRefusalCode.balance) throw new CallApiError('balance', message);
        throw new CallApiError('error', message);
      }
    },
    async joinCall(channelId) {
      await api.data(callContract.joinCall, { searchValue: channelId }, { silent: true });
    },
    async endCall(channelId, reason) {
      const hangupReason = reason === 2 || reason === 6 ? reason : 1;
      await api.data(callContract.endCall, { channelId, hangupReason }, { silent: true });
    },
    async rate(rating) {
      await api.data(callContract.callRate, rating, { silent: true });
    },
    async peerCard(account) {
      const p = await api.data(getUserDetail, { yxAccid: account }, { silent: true });
      return {
        userId: p.userId, nickname: p.nickname, icon: p.icon, levelName: p.levelName,
        ...(p.age !== null ? { age: p.age } : {}), ...(p.countryCode !== null ? { countryCode: p.countryCode } : {}),
      };
    },
  };
}

export async function createRealtimePorts(
  api: ApiClient, credentials: SessionCredentials, translator: TranslatorPort,
): Promise<RealtimePorts & { rtc: RtcAdapter; liveMedia: LiveMediaPort & { readonly media: CallMediaView } }> {
  return {
    im: await imPort(),
    signalling: await signallingPort(api),
    chatroom: await chatroomPort(api),
    liveApi: httpLiveApi(api),
    // Like the RTC: the live media adapter (and its SDK) loads when a live room first publishes or watches.
    liveMedia: createLiveMediaPort({ rtcToken: rtcTokenFrom(api) }),
    rtmToken: async () => (await api.data(realtimeContract.getAgoraRtmToken, {}, { silent: true })).rtmToken,
    callApi: httpCallApi(api),
    giftApi: httpGiftApi(api),
    // A stand-in: the media adapter (and its SDK) loads when a call first prepares.
    rtc: createRtcPort({ rtcToken: rtcTokenFrom(api) }),
    presence: createLocalPresencePort({
      url: config.presenceUrl || hubUrl(realtimeContract.RealtimePath.presence),
      token: credentials.token,
    }),
    clock: {
      now: () => Date.now(),
      setTimeout: (fn, ms) => window.setTimeout(fn, ms),
      clearTimeout: (id) => window.clearTimeout(id as number),
    },
    async loadIdleMinutes() {
      const values = await api.data(configContract.getConfigByKey, { searchValue: ConfigKey.idleReminderMinutes }, { silent: true });
      return Number(values[ConfigKey.idleReminderMinutes]);
    },
    async lookupProfiles(accounts) {
      const found = await api.data(newsContract.batchQueryYxStat, { yxAccids: [...accounts] }, { silent: true });
      const out: Record<string, ChatProfile> = {};
      for (const [account, p] of Object.entries(found)) {
        out[account] = {
          nickname: p.nickname, icon: p.icon, onlineStatus: p.onlineGroupStatus, userId: p.userId, isVip: p.isVip,
          blocked: p.isBlockUser, userType: p.userType,
        };
      }
      return out;
    },
    async translate(text, to) {
      return (await translator.translate(text, to)).text;
    },
    async setBlocked(peer, blocked) {
      await api.data(blocked ? chatContract.blockUser : chatContract.removeBlockUser, { beBlockYxAccid: peer }, { silent: true });
    },
    async storeSecret({ to, price, content }) {
      const stored = await api.data(privateMsgContract.uploadPrivateInfo, { to, price, content }, { silent: true });
      return stored.ext;
    },
    async openSecret(id, pay) {
      try {
        const info = await api.data(privateMsgContract.privateInfo, { id, pay }, { silent: true });
        return { id: info.id, price: info.price, unlocked: info.unlocked, content: info.content, mediaList: info.mediaList };
      } catch (error) {
        if (error instanceof ApiError && error.detail.code === '1080') throw new Error(TEXT_NOT_ENOUGH_DIAMONDS);
        throw error;
      }
    },
    loadPins: readPins,
    savePins: writePins,
    async customerServiceAccount() {
      const list = await api.data(realtimeContract.getCustomerServiceList, {}, { silent: true });
      return list[0]?.imId ?? null;
    },
  };
}
