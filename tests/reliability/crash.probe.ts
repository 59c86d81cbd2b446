/**
 * kill -9 mid-load with client retries. Users send gifts without pause while the server is
 * killed with SIGKILL several times and started again on the same database. A client whose
 * request got no answer (reset, refused, timed out) sends the very same request again (same
 * body, same idempotency key) until one is answered, as the app's retry after a lost answer
 * does.
 *
 * Bounds: no double charge (the gift sends recorded per sender are the intents answered as
 * sent, no more), no charge lost (none fewer), the sum of all balances conserved, and at
 * least one kill landed with requests in flight (else nothing was tested).
 */
import { endpoints } from '../../src/api/contract';
import { apiHeaders, clientAddress, dropAgents, hostAccount, send, seal, signIn, userAccount, type Answer, type Person } from './client';
import { compareLedgers, readLedger } from './ledger';
import { Bounds, inParallel, n, random, sleep, type Probe } from './probe';
import { intentKey } from './scenes';
import { startServer } from './server';

const START_DIAMONDS = 1_000_000;
const MAX_INTENTS_PER_USER = 400;

export const crashProbe: Probe = {
  name: 'crash',
  summary: 'SIGKILL under gift load, restart on the same database, clients retry unanswered requests: no double charge',
  budgetSeconds: { light: 60, full: 240 },
  async run({ light, checkout, note, signal }) {
    const users = light ? 16 : 32;
    const hosts = 6;
    const kills = light ? 3 : 12;
    const server = await startServer({ checkout, env: { SEED_HOSTS: String(hosts), SEED_USERS: String(users) } });
    try {
      const base = server.base;
      const people: Person[] = [];
      await inParallel(Array.from({ length: users }, (_, i) => i + 1), 8, async (i) => {
        people[i - 1] = await signIn(base, userAccount(i), clientAddress(i));
      });
      const hostIds: number[] = [];
      for (let i = 1; i <= hosts; i++) hostIds.push((await signIn(base, hostAccount(i), clientAddress(1000 + i))).userId);
      // Enough diamonds that every send is a charge: a refusal for want of them would hide a double charge.
      server.writeDb(`UPDATE wallets SET diamonds = ? WHERE user_id IN (${people.map((p) => p.userId).join(',')})`, START_DIAMONDS);
      const before = readLedger(server.readDb());

      const rnd = random(9);
      let requests = 0;
      let retries = 0;
      let retried = 0;
      let restartMs = 0;
      let inFlight = 0;
      let killsWithRequestsInFlight = 0;
      let killing = true;
      const answers = new Map<string, number>();
      const acceptedBySender = new Map<number, number>();

      /** Sends the same bytes until an answer comes (or the probe is stopped). */
      async function untilAnswered(person: Person, wire: string, headers: Record<string, string>): Promise<Answer> {
        for (let attempt = 0; ; attempt++) {
          signal.throwIfAborted();
          if (!killing && !server.alive()) throw new Error(`the server did not come back: ${server.logTail()}`);
          if (attempt === 1) retried += 1;
          if (attempt > 0) retries += 1;
          requests += 1;
          inFlight += 1;
          try {
            return await send(base, 'POST', endpoints.sendGift.path, wire, { from: person.from, headers, timeoutMs: 10_000 });
          } catch {
            await sleep(50);
          } finally {
            inFlight -= 1;
          }
        }
      }

      const killer = (async () => {
        for (let k = 0; k < kills; k++) {
          await sleep(300 + rnd() * 700);
          if (inFlight > 0) killsWithRequestsInFlight += 1;
          note(`kill ${k + 1} with ${inFlight} requests in flight`);
          await server.kill9();
          dropAgents();
          const restarting = performance.now();
          await server.restart();
          restartMs = Math.max(restartMs, performance.now() - restarting);
        }
      })().finally(() => {
        killing = false;
      });

      await Promise.all(people.map(async (person) => {
        const headers = apiHeaders(person.token);
        for (let k = 0; k < MAX_INTENTS_PER_USER && (killing || k < 5); k++) {
          const wire = seal({ toUserId: hostIds[Math.floor(rnd() * hosts)]!, giftId: 1, giftNum: 1 + Math.floor(rnd() * 3), idempotencyKey: intentKey() });
          const answer = await untilAnswered(person, wire, headers);
          const code = answer.envelope?.code ?? `HTTP ${answer.status}`;
          answers.set(code, (answers.get(code) ?? 0) + 1);
          if (code === '0000') acceptedBySender.set(person.userId, (acceptedBySender.get(person.userId) ?? 0) + 1);
        }
      }));
      await killer;

      const change = compareLedgers(before, readLedger(server.readDb()));
      let doubleCharges = 0;
      let lostCharges = 0;
      let charged = 0;
      for (const person of people) {
        const sends = change.newSends.get(person.userId) ?? 0;
        const accepted = acceptedBySender.get(person.userId) ?? 0;
        charged += sends;
        doubleCharges += Math.max(0, sends - accepted);
        lostCharges += Math.max(0, accepted - sends);
      }
      const intents = [...answers.values()].reduce((a, b) => a + b, 0);
      const tally = [...answers].sort(([a], [b]) => a.localeCompare(b)).map(([code, count]) => `${code} ×${n(count)}`).join(', ');

      const bounds = new Bounds();
      bounds.check(doubleCharges === 0, `${n(doubleCharges)} double charges (bound 0)`);
      bounds.check(lostCharges === 0, `${n(lostCharges)} sends answered as sent but not charged`);
      bounds.check(change.drift === 0, `diamonds not conserved (Δ ${n(change.drift)})`);
      bounds.check(killsWithRequestsInFlight > 0, 'no kill landed with requests in flight: nothing was tested');
      return {
        figures: `${kills} kills (${killsWithRequestsInFlight} with requests in flight), ${n(intents)} intents, ${n(requests)} requests, `
          + `${n(retried)} retried (${n(retries)} resends; restarts ≤ ${(restartMs / 1000).toFixed(1)} s), charged ${n(charged)}, double charges ${n(doubleCharges)}, lost ${n(lostCharges)}, `
          + `diamonds ${change.drift === 0 ? 'conserved (Δ 0)' : `NOT conserved (Δ ${n(change.drift)})`}; answers ${tally}`,
        broken: bounds.broken,
        numbers: { kills, intents, requests, retried, retries, charged, doubleCharges, lostCharges, drift: change.drift },
      };
    } finally {
      dropAgents();
      await server.stop();
    }
  },
};
