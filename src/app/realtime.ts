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
import type { TranslatorPort } from '../../machines/ports/translator.port';
import type { ChatProfile } from '../../machines/conversations/conversations.machine';
import { config } from './config';

const { ConfigKey } = configContract;

async function imPort(): Promise<ImPort> {
  if (config.realtime !== 'production') return createLocalImPort({ url: hubUrl(realtimeContract.RealtimePath.im) });
  const [{ createNimImPort }, { loadNim }] = await Promise.all([
    import('../adapters/im.nim'),
    import('../adapters/im.nim.load'),
  ]);
  return createNimImPort({ appkey: config.nimAppKey, loadSdk: loadNim });
}

/** SPEC §8 1080 'diamond.not.enough', said in words. */
export const TEXT_NOT_ENOUGH_DIAMONDS = 'You do not have enough diamonds.';

export async function createRealtimePorts(
  api: ApiClient, credentials: SessionCredentials, translator: TranslatorPort,
): Promise<RealtimePorts> {
  return {
    im: await imPort(),
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
          blocked: p.isBlockUser,
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
