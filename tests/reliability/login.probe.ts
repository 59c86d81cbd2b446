/**
 * Login flood. Wrong passwords pour in from several loopback addresses at once, half of them
 * at one account and half spread over many, while a real user signs in again and again from
 * an address and a process of her own; then a run of sign-ups and of visitor entries from one
 * address.
 *
 * A guess counts as checked when the server answered it as a wrong password (1005): it did
 * the password work and told the guesser the result. Refusals for too many attempts are not.
 *
 * Bounds: the lockout holds (however long the flood, a lockout's small allowance: at most
 * ACCOUNT_ALLOWANCE checked guesses on any one account and ADDRESS_ALLOWANCE from any one
 * address), real sign-ins all succeed with a p99 under 50 ms, and sign-ups and visitor entries
 * from one address stop (the last of a long run are refused).
 */
import { randomBytes } from 'node:crypto';
import { endpoints } from '../../src/api/contract';
import { ResultCode } from '../../src/api/codes';
import { bystander } from './bystander';
import { api, apiHeaders, device, dropAgents, PASSWORD, seal, send, userAccount, type Answer } from './client';
import { Bounds, latencyBound, machineLoad, ms, n, percentile, sleep, type Probe } from './probe';
import { startServer } from './server';

const REAL_LOGIN_P99_MS = 50;
/** Checked guesses a lockout may let through on one account, and from one address, before it holds. */
const ACCOUNT_ALLOWANCE = 20;
const ADDRESS_ALLOWANCE = 50;
const ATTACKERS = 32;
const ATTACK_ADDRESSES = 8;
const attackAddress = (i: number) => `127.0.2.${1 + (i % ATTACK_ADDRESSES)}`;
const REAL_ADDRESS = '127.0.0.1';
/** Of a run of sign-ups (or visitor entries) from one address, the last ones that must be refused. */
const RUN = 45;
const REFUSED_TAIL = 10;

export const loginProbe: Probe = {
  name: 'login',
  summary: 'wrong-password flood from 8 addresses (one account and many) beside a real user; sign-up and visitor runs: lockout holds, real p99 < 50 ms',
  budgetSeconds: { light: 45, full: 90 },
  async run({ light, checkout, note }) {
    const floodMs = light ? 6_000 : 10_000;
    const accounts = 40;
    const server = await startServer({ checkout, env: { SEED_HOSTS: '2', SEED_USERS: String(accounts) } });
    try {
      const base = server.base;
      // The real user signs in from a process of her own (her times must not wait behind the
      // flood's requests in this one), alone first: the figure the flood is compared with.
      const realUser = {
        url: base + endpoints.login.path,
        headers: apiHeaders(null),
        body: seal({ ...device('login-probe-real'), account: userAccount(1), password: PASSWORD }),
        from: REAL_ADDRESS,
        pauseMs: 25,
      };
      let watcher = bystander(realUser);
      await sleep(1_500);
      const alone = (await watcher.stop()).map((s) => s.ms);

      note(`flood of ${ATTACKERS} guessers for ${floodMs / 1000} s`);
      watcher = bystander(realUser);
      const started = performance.now();
      let flooding = true;
      const checked = { oneAccount: 0, manyAccounts: 0, byAccount: new Map<string, number>(), byAddress: new Map<string, number>() };
      let guesses = 0;
      let refusedAnswer = '';
      // Each guess's body made ahead (a few wrong passwords an account): encrypting thousands a
      // second would take this process the CPU the server needs (every guess counts the same).
      const guessBodies = new Map<string, string[]>();
      const bodyOf = (account: string, k: number) => {
        let bodies = guessBodies.get(account);
        if (!bodies) {
          bodies = Array.from({ length: 4 }, () => seal({ ...device('login-probe-guesser'), account, password: `wrong-${randomBytes(4).toString('hex')}` }));
          guessBodies.set(account, bodies);
        }
        return bodies[k % bodies.length]!;
      };
      const guessHeaders = apiHeaders(null);
      const guessers = Array.from({ length: ATTACKERS }, async (_, w) => {
        const from = attackAddress(w);
        for (let k = 0; flooding; k++) {
          const one = w % 2 === 0;
          const account = one ? userAccount(2) : userAccount(3 + ((w * 7 + k) % (accounts - 2)));
          let answer: Answer;
          try {
            answer = await send(base, 'POST', endpoints.login.path, bodyOf(account, k), { from, headers: guessHeaders });
          } catch {
            continue;
          }
          guesses += 1;
          if (answer.envelope?.code === ResultCode.authFailed) {
            if (one) checked.oneAccount += 1;
            else checked.manyAccounts += 1;
            checked.byAccount.set(account, (checked.byAccount.get(account) ?? 0) + 1);
            checked.byAddress.set(from, (checked.byAddress.get(from) ?? 0) + 1);
          } else if (!refusedAnswer) {
            refusedAnswer = answer.envelope ? `${answer.envelope.code} '${answer.envelope.message}'` : `HTTP ${answer.status}`;
          }
        }
      });
      await sleep(floodMs);
      flooding = false;
      const realSigns = await watcher.stop();
      await Promise.all(guessers);
      const seconds = (performance.now() - started) / 1000;
      const real = realSigns.map((s) => s.ms);
      const realFailed = realSigns.filter((s) => s.envelope?.code !== '0000').length;
      const load = machineLoad();

      note('sign-up and visitor runs');
      // One at a time until the first refusal (the order the limit counts in), then the rest at
      // once: the server holds each refusal for a second. The two runs go side by side.
      const run = async (attempt: (i: number) => Promise<boolean>): Promise<boolean[]> => {
        const results: boolean[] = [];
        while (results.length < RUN) {
          const accepted = await attempt(results.length);
          results.push(accepted);
          if (!accepted) break;
        }
        const from = results.length;
        return [...results, ...(await Promise.all(Array.from({ length: RUN - from }, (_, k) => attempt(from + k))))];
      };
      const [signUps, visits] = await Promise.all([
        run(async (i) => {
          const id = randomBytes(6).toString('hex');
          const signUp = await api(base, endpoints.register.path, {
            ...device(`signup-${id}`), account: `probe-${id}@example.com`, password: 'password-probe', nickname: `Probe ${i}`,
          }, null, { from: '127.0.3.1' });
          return signUp.envelope?.code === '0000';
        }),
        run(async () => {
          const visit = await api(base, endpoints.visit.path, device(`visit-${randomBytes(6).toString('hex')}`), null, { from: '127.0.3.2' });
          return visit.envelope?.code === '0000';
        }),
      ]);
      const tailAccepted = (run: boolean[]) => run.slice(-REFUSED_TAIL).filter(Boolean).length;

      const worstAccount = Math.max(0, ...checked.byAccount.values());
      const worstAddress = Math.max(0, ...checked.byAddress.values());
      const realP99 = percentile(real, 99);
      const bounds = new Bounds();
      bounds.check(worstAccount <= ACCOUNT_ALLOWANCE, `an account took ${n(worstAccount)} checked guesses (bound ${ACCOUNT_ALLOWANCE})`);
      bounds.check(worstAddress <= ADDRESS_ALLOWANCE, `an address had ${n(worstAddress)} guesses checked (bound ${ADDRESS_ALLOWANCE})`);
      bounds.check(realFailed === 0, `${realFailed} of ${real.length} real sign-ins refused`);
      const realBound = latencyBound(light, REAL_LOGIN_P99_MS, percentile(alone, 99));
      bounds.check(realP99 < realBound, `real sign-in p99 ${ms(realP99)} (bound ${ms(realBound)})`);
      bounds.check(tailAccepted(signUps) === 0, `${tailAccepted(signUps)} of the last ${REFUSED_TAIL} sign-ups from one address accepted`);
      bounds.check(tailAccepted(visits) === 0, `${tailAccepted(visits)} of the last ${REFUSED_TAIL} visitor entries from one address accepted`);
      return {
        figures: `${n(guesses)} guesses in ${seconds.toFixed(1)} s from ${ATTACK_ADDRESSES} addresses, checked ${((checked.oneAccount + checked.manyAccounts) / seconds).toFixed(1)}/s `
          + `(one account ${(checked.oneAccount / seconds).toFixed(1)}/s, many accounts ${(checked.manyAccounts / seconds).toFixed(1)}/s; `
          + `at most ${n(worstAccount)} on an account, ${n(worstAddress)} from an address), `
          + `${refusedAnswer ? `refused with ${refusedAnswer}` : 'none refused'}; real sign-in p50 ${ms(percentile(real, 50))} p99 ${ms(realP99)} under flood (p99 ${ms(percentile(alone, 99))} alone; ${load}), `
          + `${realFailed}/${real.length} refused; sign-ups accepted ${signUps.filter(Boolean).length}/${RUN}, visitor entries ${visits.filter(Boolean).length}/${RUN} from one address`,
        broken: bounds.broken,
        numbers: {
          guesses, checkedPerSecond: (checked.oneAccount + checked.manyAccounts) / seconds, worstAccount, worstAddress,
          realP50: percentile(real, 50), realP99, realAloneP99: percentile(alone, 99), realFailed, signUpsAccepted: signUps.filter(Boolean).length,
          visitsAccepted: visits.filter(Boolean).length,
        },
      };
    } finally {
      dropAgents();
      await server.stop();
    }
  },
};
