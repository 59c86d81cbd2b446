/**
 * The chat port's contract against the HTTP adapter over a real reference server in-process,
 * with the seeded accounts (host1; user1 with 1000 diamonds, user4 with none): blocking seen
 * through the profiles' lookup, secret messages stored, opened and paid for under their
 * idempotency keys. A lost answer is a response the server sent and the client never read.
 */
import { createApiClient } from '../../api/client';
import { endpoints } from '../../api/contract';
import { registerChatContract } from '../../../machines/ports/chat.contract';
import { SEED_PASSWORD } from '../../../server/db/seed';
import { codec, device, startTestServer } from '../../../server/testing/harness';
import { httpChatApi } from './chat.http';
import { httpProfiles } from './lookups.http';

registerChatContract('HTTP adapter over the reference server', async () => {
  const server = await startTestServer({ build: false, seed: { hosts: 1, users: 4 } });
  const accountOf = server.readDb().prepare('SELECT yx_accid FROM users WHERE account = ?').pluck();

  /** The API client of the person signed in as `login`; `lose()` drops the next answer after the server sent it. */
  async function signIn(login: string) {
    const signedIn = await server.call(endpoints.login, { ...device, account: login, password: SEED_PASSWORD });
    const token = signedIn.data!.token;
    let loseNext = false;
    const api = createApiClient({
      baseUrl: server.base,
      codec,
      credentials: () => ({ token, appId: 'test-app' }),
      onNotice: () => {},
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (!loseNext) return response;
        loseNext = false;
        await response.text();
        throw new TypeError('fetch failed');
      },
    });
    return { api, account: accountOf.get(login) as string, lose: () => { loseNext = true; } };
  }

  const [host, payer, broke] = await Promise.all(['host1@example.com', 'user1@example.com', 'user4@example.com'].map(signIn));
  const payerProfiles = httpProfiles(payer!.api);
  return {
    host: httpChatApi(host!.api),
    hostAccount: host!.account,
    payer: httpChatApi(payer!.api),
    payerAccount: payer!.account,
    broke: httpChatApi(broke!.api),
    brokeAccount: broke!.account,
    unknownAccount: 'yx-nobody',
    payerBlocks: async (peer) => (await payerProfiles.lookup([peer]))[peer]?.blocked === true,
    loseNextAnswerToPayer: () => payer!.lose(),
    dispose: () => server.close(),
  };
});
