/**
 * The realtime ports of the signed-in session. `VITE_REALTIME=local` (default) talks to the
 * reference server's hub; `production` uses NetEase IM, whose adapter and SDK load only
 * when chosen (the SDK itself only at the first login). Presence is a plain socket in both
 * (`VITE_PRESENCE_URL` points it elsewhere). The ports only a call, a chat's extras or a live
 * room use are stand-ins here: their code (perUsePorts.ts) loads with the first of their calls.
 */
import type { RealtimePorts } from '../../machines/session/session.actors';
import type { ImPort } from '../../machines/ports/im.port';
import type { WithdrawPort } from '../../machines/ports/withdraw.port';
import { hubUrl } from '../adapters/hub.socket';
import { createLocalImPort } from '../adapters/im.local';
import { createLocalPresencePort } from '../adapters/presence.local';
import type { SessionCredentials } from '../adapters/http/session.http';
import type { ApiClient } from '../api/client';
import { readChatQuota, readPins, writeChatQuota, writePins } from '../adapters/storage';
import * as realtimeContract from '../api/contract/realtime';
import { agoraTokensFrom, httpProfiles, httpSettings, httpTokens, rtcTokenFrom } from '../adapters/http/lookups.http';
import type { SignallingPort } from '../../machines/ports/signalling.port';
import { createLocalSignallingPort } from '../adapters/signalling.local';
import { createRtcPort } from './rtc';
import type { CallMediaView, RtcAdapter } from '../../machines/ports/call.media';
import type { LiveMediaPort } from '../../machines/ports/live.port';
import { createLiveMediaPort } from './liveMedia';
import type { TranslatorPort } from '../../machines/ports/translator.port';
import { config } from '../app/config';
import { presenceRetryFrom } from '../app/devSettings';
import type { PerUsePorts } from './perUsePorts';
import { deferredPort, loadOnce } from './deferredPort';

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
    fetchRtmToken: agoraTokensFrom(api),
  });
}

/** Loads the per-use ports once (a failed load is tried again at the next call). */
function perUseLoader(api: ApiClient): () => Promise<PerUsePorts> {
  return loadOnce(() => import('./perUsePorts').then((m) => m.createPerUsePorts(api)));
}

/** Stand-ins for the per-use ports: each call waits for their code, then is theirs (deferredPort.ts). */
function perUsePorts(load: () => Promise<PerUsePorts>): PerUsePorts {
  const chatroom = deferredPort(async () => (await load()).chatroom, ['enter', 'leave', 'send', 'members', 'history', 'setGagged']);
  return {
    callApi: deferredPort(async () => (await load()).callApi, ['createCall', 'joinCall', 'endCall', 'rate', 'peerCard', 'terms']),
    giftApi: deferredPort(async () => (await load()).giftApi, ['list', 'send', 'askFor', 'refuseAsk']),
    liveApi: deferredPort(async () => (await load()).liveApi, ['checkPermission', 'begin', 'heartbeat', 'setPrivateCall', 'end', 'join', 'leave']),
    chatroom: {
      ...chatroom,
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
    chat: deferredPort(async () => (await load()).chat, ['setBlocked', 'storeSecret', 'openSecret']),
    wallet: deferredPort(async () => (await load()).wallet, ['offers', 'order', 'usdtPaid', 'vipShop', 'summary', 'orderHistory', 'diamondFlows']),
    withdraw: deferredPort(async () => (await load()).withdraw, [
      'balance', 'summary', 'incomeFlows', 'accounts', 'addAccount', 'config', 'setPassword', 'apply', 'records',
    ]),
  };
}

export async function createRealtimePorts(
  api: ApiClient, credentials: SessionCredentials, translator: TranslatorPort,
): Promise<RealtimePorts & {
  rtc: RtcAdapter; warmCall: () => void; liveMedia: LiveMediaPort & { readonly media: CallMediaView };
  /** A host's money out (SPEC §2 /wallet for a host): the screens' withdrawal machines take it (services.withdraw). */
  withdraw: WithdrawPort;
}> {
  const loadPerUsePorts = perUseLoader(api);
  const rtc = createRtcPort({ rtcToken: rtcTokenFrom(api) });
  const presenceRetry = presenceRetryFrom(window.location.search);
  return {
    im: await imPort(),
    signalling: await signallingPort(api),
    ...perUsePorts(loadPerUsePorts),
    // Like the RTC: the live media adapter (and its SDK) loads when a live room first publishes or watches.
    liveMedia: createLiveMediaPort({ rtcToken: rtcTokenFrom(api) }),
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
    tokens: httpTokens(api),
    settings: httpSettings(api),
    profiles: httpProfiles(api),
    translator,
    pins: { load: readPins, save: writePins },
    // Whom the person wrote to today (the non-paid user quota), kept for a reload.
    chatQuota: { load: readChatQuota, save: writeChatQuota },
    // Store payments through the native shell (README "Shell contract"); the USDT order being paid, kept for a reload.
    // Its code loads with the first store payment.
    storePay: async (payment) => (await import('../adapters/store.bridge')).createStorePay()(payment),
    payData: {
      read: async (account) => (await import('../adapters/pay-data.storage')).readPayData(account),
      write: async (account, order) => (await import('../adapters/pay-data.storage')).writePayData(account, order),
      clear: async (account) => (await import('../adapters/pay-data.storage')).clearPayData(account),
    },
  };
}
