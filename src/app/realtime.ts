/**
 * The realtime ports of the signed-in session. `VITE_REALTIME=local` (default) talks to the
 * reference server's hub; `production` uses NetEase IM, whose adapter and SDK load only
 * when chosen (the SDK itself only at the first login). Presence is a plain socket in both
 * (`VITE_PRESENCE_URL` points it elsewhere). The ports only a call, a chat's extras or a live
 * room use are stand-ins here: their code (perUsePorts.ts) loads with the first of their calls.
 */
import type { RealtimePorts } from '../../machines/session/session.actors';
import type { ImPort } from '../../machines/ports/im.port';
import { hubUrl } from '../adapters/hub.socket';
import { createLocalImPort } from '../adapters/im.local';
import { createLocalPresencePort } from '../adapters/presence.local';
import type { SessionCredentials } from '../adapters/session.http';
import type { ApiClient } from '../api/client';
import { readPins, writePins } from '../adapters/storage';
import { config as configContract, news as newsContract, realtime as realtimeContract } from '../api/contract';
import type { SignallingPort } from '../../machines/ports/signalling.port';
import { createLocalSignallingPort } from '../adapters/signalling.local';
import { createRtcPort, rtcTokenFrom } from './rtc';
import type { CallMediaView, RtcAdapter } from '../../machines/ports/call.media';
import type { LiveMediaPort } from '../../machines/ports/live.port';
import { createLiveMediaPort } from './liveMedia';
import type { TranslatorPort } from '../../machines/ports/translator.port';
import type { ChatProfile } from '../../machines/conversations/conversations.machine';
import { config } from './config';
import { presenceRetryFrom } from './devSettings';
import type { PerUsePorts } from './perUsePorts';

const { ConfigKey } = configContract;

async function imPort(): Promise<ImPort> {
  if (config.realtime !== 'production') return createLocalImPort({ url: hubUrl(realtimeContract.RealtimePath.im) });
  const [{ createNimImPort }, { loadNim }] = await Promise.all([
    import('../adapters/im.nim'),
    import('../adapters/im.nim.load'),
  ]);
  return createNimImPort({ appkey: config.nimAppKey, loadSdk: loadNim });
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

/** Loads the per-use ports once (a failed load is tried again at the next call). */
function perUseLoader(api: ApiClient): () => Promise<PerUsePorts> {
  let loading: Promise<PerUsePorts> | null = null;
  return () => {
    loading ??= import('./perUsePorts').then((m) => m.createPerUsePorts(api)).catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}

/** Stand-ins for the per-use ports: each call waits for their code, then is theirs. */
function perUsePorts(load: () => Promise<PerUsePorts>): PerUsePorts {
  return {
    callApi: {
      createCall: async (request) => (await load()).callApi.createCall(request),
      joinCall: async (channelId, idempotencyKey) => (await load()).callApi.joinCall(channelId, idempotencyKey),
      endCall: async (channelId, reason) => (await load()).callApi.endCall(channelId, reason),
      rate: async (rating) => (await load()).callApi.rate(rating),
      peerCard: async (account) => (await load()).callApi.peerCard(account),
      terms: async (channelId) => (await load()).callApi.terms(channelId),
    },
    giftApi: {
      list: async (filter) => (await load()).giftApi.list(filter),
      send: async (request) => (await load()).giftApi.send(request),
      askFor: async (request) => (await load()).giftApi.askFor(request),
      refuseAsk: async (askId) => (await load()).giftApi.refuseAsk(askId),
    },
    liveApi: {
      checkPermission: async () => (await load()).liveApi.checkPermission(),
      begin: async (setting) => (await load()).liveApi.begin(setting),
      heartbeat: async (roomId) => (await load()).liveApi.heartbeat(roomId),
      setPrivateCall: async (open) => (await load()).liveApi.setPrivateCall(open),
      end: async () => (await load()).liveApi.end(),
      join: async (hostUserId) => (await load()).liveApi.join(hostUserId),
      leave: async (hostUserId) => (await load()).liveApi.leave(hostUserId),
    },
    chatroom: {
      enter: async (roomId, entry) => (await load()).chatroom.enter(roomId, entry),
      leave: async (roomId) => (await load()).chatroom.leave(roomId),
      send: async (roomId, message) => (await load()).chatroom.send(roomId, message),
      members: async (roomId, limit) => (await load()).chatroom.members(roomId, limit),
      history: async (roomId, limit) => (await load()).chatroom.history(roomId, limit),
      setGagged: async (roomId, account, gagged) => (await load()).chatroom.setGagged(roomId, account, gagged),
      // Nothing arrives before the room is entered, which waits for the port's code.
      subscribe(roomId, listener) {
        let unsubscribe: (() => void) | null = null;
        let active = true;
        load().then((ports) => { if (active) unsubscribe = ports.chatroom.subscribe(roomId, listener); }, () => undefined);
        return () => {
          active = false;
          unsubscribe?.();
        };
      },
    },
    setBlocked: async (peer, blocked) => (await load()).setBlocked(peer, blocked),
    storeSecret: async (secret) => (await load()).storeSecret(secret),
    openSecret: async (id, payment) => (await load()).openSecret(id, payment),
  };
}

export async function createRealtimePorts(
  api: ApiClient, credentials: SessionCredentials, translator: TranslatorPort,
): Promise<RealtimePorts & { rtc: RtcAdapter; warmCall: () => void; liveMedia: LiveMediaPort & { readonly media: CallMediaView } }> {
  const loadPerUsePorts = perUseLoader(api);
  const rtc = createRtcPort({ rtcToken: rtcTokenFrom(api) });
  const presenceRetry = presenceRetryFrom(window.location.search);
  return {
    im: await imPort(),
    signalling: await signallingPort(api),
    ...perUsePorts(loadPerUsePorts),
    // Like the RTC: the live media adapter (and its SDK) loads when a live room first publishes or watches.
    liveMedia: createLiveMediaPort({ rtcToken: rtcTokenFrom(api) }),
    rtmToken: async () => (await api.data(realtimeContract.getAgoraRtmToken, {}, { silent: true })).rtmToken,
    // A stand-in: the media adapter (and its SDK) loads when a call first prepares, or is warmed.
    rtc,
    warmCall: () => {
      void rtc.warm();
      loadPerUsePorts().catch(() => undefined);
    },
    presence: createLocalPresencePort({
      url: config.presenceUrl || hubUrl(realtimeContract.RealtimePath.presence),
      token: credentials.token,
    }),
    // SPEC §9's reconnect policy, unless a development build is asked for another (devSettings.ts).
    ...(presenceRetry ? { presenceRetry } : {}),
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
          blocked: p.isBlockUser, userType: p.userType, living: p.living,
        };
      }
      return out;
    },
    async translate(text, to) {
      return (await translator.translate(text, to)).text;
    },
    loadPins: readPins,
    savePins: writePins,
    async customerServiceAccount() {
      const list = await api.data(realtimeContract.getCustomerServiceList, {}, { silent: true });
      return list[0]?.imId ?? null;
    },
  };
}
