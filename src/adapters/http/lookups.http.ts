/**
 * The session's lookups over the HTTP contract (SPEC §7): the Agora tokens (getAgoraRtmToken, a
 * fresh one each time: tokens expire), the idle reminder's minutes (getConfigByKey), the chats'
 * profiles (batchQueryYxStat) and the customer service's account. All silent: their callers
 * report failures themselves.
 */
import type { ChatProfile, ProfilesPort } from '../../../machines/ports/profiles.port';
import type { SettingsPort } from '../../../machines/ports/settings.port';
import type { TokensPort } from '../../../machines/ports/tokens.port';
import type { ApiClient } from '../../api/client';
import * as configContract from '../../api/contract/config';
import * as newsContract from '../../api/contract/news';
import * as realtimeContract from '../../api/contract/realtime';

const { ConfigKey } = configContract;

/** Both Agora tokens (getAgoraRtmToken): the production signalling's login asks for them. */
export const agoraTokensFrom = (api: ApiClient) => () => api.data(realtimeContract.getAgoraRtmToken, {}, { silent: true });

/** The rtcToken, asked for at every join of a call or a live room. */
export const rtcTokenFrom = (api: ApiClient) => async (): Promise<string> => (await agoraTokensFrom(api)()).rtcToken;

/** The signalling login's token (getAgoraRtmToken), a fresh one each time. */
export function httpTokens(api: ApiClient): Pick<TokensPort, 'rtm'> {
  return { rtm: async () => (await agoraTokensFrom(api)()).rtmToken };
}

/** The idle reminder's minutes (getConfigByKey). */
export function httpSettings(api: ApiClient): SettingsPort {
  return {
    async idleMinutes() {
      const values = await api.data(configContract.getConfigByKey, { searchValue: ConfigKey.idleReminderMinutes }, { silent: true });
      return Number(values[ConfigKey.idleReminderMinutes]);
    },
  };
}

/** The chats' profiles (batchQueryYxStat) and the customer service's account (getCustomerServiceList). */
export function httpProfiles(api: ApiClient): ProfilesPort {
  return {
    async lookup(accounts) {
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
    async customerService() {
      const list = await api.data(realtimeContract.getCustomerServiceList, {}, { silent: true });
      return list[0]?.imId ?? null;
    },
  };
}
