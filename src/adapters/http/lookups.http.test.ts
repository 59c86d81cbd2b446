/**
 * The session's lookups over the HTTP contract against a real reference server in-process,
 * with the seeded accounts: the profiles (batchQueryYxStat, getCustomerServiceList), settings
 * (getConfigByKey max_no_use_app_reminder_time) and tokens (getAgoraRtmToken; the IM token's
 * refresh through the session adapter, as the app composes it in machines/app/app.actors.ts)
 * port contracts. The server side is read in its database and its hub.
 */
import { ConfigKey } from '../../api/contract/config';
import { createApiClient } from '../../api/client';
import type { ApiClient } from '../../api/client';
import { endpoints } from '../../api/contract';
import { registerProfilesContract } from '../../../machines/ports/profiles.contract';
import { registerSettingsContract } from '../../../machines/ports/settings.contract';
import { registerTokensContract } from '../../../machines/ports/tokens.contract';
import type { TokensPort } from '../../../machines/ports/tokens.port';
import { OnlineStatus } from '../../../machines/codes/user.codes';
import { openDatabase } from '../../../server/db/database';
import { CUSTOMER_SERVICE, SEED_PASSWORD } from '../../../server/db/seed';
import { codec, device, startTestServer } from '../../../server/testing/harness';
import type { TestServer } from '../../../server/testing/harness';
import { httpProfiles, httpSettings, httpTokens } from './lookups.http';
import { SessionCredentials, createHttpSessionPort } from './session.http';

interface Person {
  userId: number;
  account: string;
  nickname: string;
  icon: string;
  userType: number;
}

/** A server with the seeded accounts, `user1` signed in, and a writer beside the server for its settings. */
async function startServer() {
  const server: TestServer = await startTestServer({ build: false, seed: { hosts: 2, users: 2 } });
  const people = server.readDb().prepare(
    'SELECT id AS userId, yx_accid AS account, nickname, icon, user_type AS userType FROM users WHERE account = ?',
  );
  const person = (login: string) => people.get(login) as Person;
  const signedIn = await server.call(endpoints.login, { ...device, account: 'user1@example.com', password: SEED_PASSWORD });
  const token = signedIn.data!.token;
  const api = (signedOut = false): ApiClient => createApiClient({
    baseUrl: server.base,
    codec,
    credentials: () => (signedOut ? null : { token, appId: 'test-app' }),
    onNotice: () => {},
  });
  const writer = openDatabase(server.dbPath);
  return {
    server,
    token,
    api,
    writer,
    me: person('user1@example.com'),
    person,
    async close() {
      writer.close();
      await server.close();
    },
  };
}

registerProfilesContract('HTTP adapter over the reference server', async () => {
  const s = await startServer();
  const known = [s.person('host1@example.com'), s.person('user2@example.com')];
  return {
    port: httpProfiles(s.api()),
    known: known.map(({ account, ...p }) => ({
      account,
      // Never connected: offline (SPEC §3 online status default 3).
      profile: { ...p, onlineStatus: OnlineStatus.offline, living: false },
    })),
    unknownAccount: 'yx-nobody',
    block: async (account) => { await s.server.call(endpoints.blockUser, { beBlockYxAccid: account }, { token: s.token }); },
    customerService: CUSTOMER_SERVICE.yxAccid,
    noCustomerService: () => { s.writer.prepare('DELETE FROM customer_service').run(); },
    dispose: () => s.close(),
  };
});

registerSettingsContract('HTTP adapter over the reference server', async () => {
  const s = await startServer();
  return {
    port: httpSettings(s.api()),
    store: (value) => {
      if (value === undefined) s.writer.prepare('DELETE FROM app_config WHERE key = ?').run(ConfigKey.idleReminderMinutes);
      else s.writer.prepare('INSERT OR REPLACE INTO app_config (key, value) VALUES (?, ?)').run(ConfigKey.idleReminderMinutes, value);
    },
    refusedPort: () => httpSettings(s.api(true)),
    dispose: () => s.close(),
  };
});

/** The tokens port as the app composes it: the rtm token's lookup, and the IM token's refresh from the session adapter. */
function productionTokens(api: ApiClient): TokensPort {
  const session = createHttpSessionPort({ api, credentials: new SessionCredentials(), appId: 'test-app' });
  return { ...httpTokens(api), refreshIm: () => session.refreshImToken() };
}

registerTokensContract('HTTP adapters over the reference server', async () => {
  const s = await startServer();
  const { realtime } = s.server.app;
  return {
    port: productionTokens(s.api()),
    account: s.me.account,
    otherAccount: s.person('user2@example.com').account,
    rtmAccepted: (account, token) => realtime.tokens.checkRtm(account, token).ok,
    imAccepted: (account, token) => realtime.accounts.verify(account, token) !== undefined,
    signedOutPort: () => productionTokens(s.api(true)),
    dispose: () => s.close(),
  };
});
