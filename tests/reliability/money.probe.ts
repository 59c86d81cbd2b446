/**
 * Money under concurrency with replays. Many users send gifts at once, to hosts and within
 * connected calls (billed every second meanwhile), and every gift request is also sent again
 * byte for byte, several times, at the same moment (the fixed key and IV of SPEC §5 make an
 * identical request byte-identical, so anyone who saw one can replay it). Each request carries
 * an idempotency key, one per intent, as the contract asks.
 *
 * Bounds: the sum of all balances is conserved (what payers spent, hosts earned), no balance
 * is below zero, and replays move nothing: the gift sends recorded are exactly the intents that
 * were answered as sent. The probe must also have moved money (a server refusing everything
 * would pass the rest).
 */
import { endpoints } from '../../src/api/contract';
import { apiHeaders, clientAddress, dropAgents, hostAccount, send, seal, signIn, userAccount, type Answer, type Person } from './client';
import { compareLedgers, readLedger } from './ledger';
import { Bounds, inParallel, n, random, sleep, type Probe } from './probe';
import { connectCall, endCall, intentKey, present, type ConnectedCall } from './scenes';
import { startServer } from './server';

/** Cheap gifts of the seed (id → price), so that balances last through many sends. */
const GIFTS: readonly (readonly [number, number])[] = [[1, 1], [2, 5], [3, 10], [6, 20]];

export const moneyProbe: Probe = {
  name: 'money',
  summary: 'concurrent gift sends, each replayed byte for byte: conservation, no balance below zero, replays move nothing',
  budgetSeconds: { light: 40, full: 120 },
  async run({ light, checkout, note }) {
    const hosts = 10;
    const users = light ? 20 : 40;
    const intentsPerUser = light ? 5 : 10;
    const replays = light ? 3 : 5;
    const calls = light ? 3 : 6;
    const server = await startServer({
      checkout,
      env: { SEED_HOSTS: String(hosts), SEED_USERS: String(users), CALL_BILLING_PERIOD_MS: '1000' },
    });
    try {
      const base = server.base;
      const db = server.readDb();
      const before = readLedger(db);
      note(`signing in ${users} users and ${hosts} hosts`);
      const userList: Person[] = [];
      const hostList: Person[] = [];
      await inParallel(Array.from({ length: users }, (_, i) => i + 1), 8, async (i) => {
        userList[i - 1] = await signIn(base, userAccount(i), clientAddress(i));
      });
      await inParallel(Array.from({ length: hosts }, (_, i) => i + 1), 8, async (i) => {
        hostList[i - 1] = await signIn(base, hostAccount(i), clientAddress(1000 + i));
      });

      // Calls between users who have diamonds (user 1, 5, 9, … start with 1000) and the first hosts.
      const sockets = await Promise.all(hostList.slice(0, calls).map((host) => present(base, host)));
      const inCall = new Map<number, ConnectedCall>();
      for (let c = 0; c < calls; c++) {
        const user = userList[c * 4]!;
        inCall.set(user.userId, await connectCall(base, user, hostList[c]!));
      }

      const rnd = random(25);
      let sendsAccepted = 0;
      let replaysSent = 0;
      let noAnswer = 0;
      const answers = new Map<string, number>();
      const acceptedBySender = new Map<number, number>();
      note(`${users} users × ${intentsPerUser} intents, each sent ${replays + 1} times at once`);

      await Promise.all(userList.map(async (user) => {
        for (let k = 0; k < intentsPerUser; k++) {
          const call = inCall.get(user.userId);
          const withinCall = call !== undefined && rnd() < 0.5;
          const host = withinCall ? call.host : hostList[Math.floor(rnd() * hosts)]!;
          const [giftId] = GIFTS[Math.floor(rnd() * GIFTS.length)]!;
          const body = {
            ...(withinCall ? { channelId: call.channelId } : {}),
            toUserId: host.userId,
            giftId,
            giftNum: 1 + Math.floor(rnd() * 3),
            idempotencyKey: intentKey(),
          };
          // The same bytes every time: one wire body, one set of headers.
          const wire = seal(body);
          const headers = apiHeaders(user.token);
          const copies = await Promise.all(Array.from({ length: replays + 1 }, () =>
            send(base, 'POST', endpoints.sendGift.path, wire, { from: user.from, headers }).catch(() => null)));
          replaysSent += replays;
          let accepted = false;
          for (const answer of copies) {
            const code = answerCode(answer);
            if (answer === null) noAnswer += 1;
            answers.set(code, (answers.get(code) ?? 0) + 1);
            if (code === '0000') accepted = true;
          }
          if (accepted) {
            sendsAccepted += 1;
            acceptedBySender.set(user.userId, (acceptedBySender.get(user.userId) ?? 0) + 1);
          }
        }
      }));

      // End the calls (billing stops), then let a period that was being charged finish.
      for (const call of inCall.values()) await endCall(base, call.user, call.channelId).catch(() => undefined);
      await sleep(300);
      for (const socket of sockets) socket.close();
      const after = readLedger(db);
      const change = compareLedgers(before, after);
      let charged = 0;
      let replaysMoved = 0;
      for (const [sender, sends] of change.newSends) {
        charged += sends;
        replaysMoved += Math.max(0, sends - (acceptedBySender.get(sender) ?? 0));
      }
      const intents = users * intentsPerUser;
      const tally = [...answers].sort(([a], [b]) => a.localeCompare(b)).map(([code, count]) => `${code} ×${n(count)}`).join(', ');

      const bounds = new Bounds();
      bounds.check(change.drift === 0, `diamonds not conserved (Δ ${n(change.drift)})`);
      bounds.check(change.minBalance >= 0, `a balance below zero (${n(change.minBalance)})`);
      bounds.check(replaysMoved === 0, `replays moved ${n(replaysMoved)} (bound 0)`);
      bounds.check(charged > 0 && change.spent > 0, 'no money moved: nothing was tested');
      bounds.check(noAnswer === 0, `${n(noAnswer)} requests unanswered`);
      return {
        figures: `${n(intents)} sends + ${n(replaysSent)} replays (${calls} in calls), accepted ${n(sendsAccepted)}, charged ${n(charged)}, `
          + `replays moved ${n(replaysMoved)}, spent ${n(change.spent)} earned ${n(change.earned)} over ${n(change.accountsMoved)} accounts, `
          + `diamonds ${change.drift === 0 ? 'conserved (Δ 0)' : `NOT conserved (Δ ${n(change.drift)})`}, min balance ${n(change.minBalance)}; answers ${tally}`,
        broken: bounds.broken,
        numbers: {
          sends: intents, replays: replaysSent, accepted: sendsAccepted, charged, replaysMoved,
          spent: change.spent, earned: change.earned, drift: change.drift, minBalance: change.minBalance,
        },
      };
    } finally {
      dropAgents();
      await server.stop();
    }
  },
};

/** The envelope's code, 'HTTP n' for a non-envelope answer, 'none' for no answer. */
export function answerCode(answer: Answer | null): string {
  if (!answer) return 'none';
  return answer.envelope?.code ?? `HTTP ${answer.status}`;
}
