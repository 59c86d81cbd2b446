/**
 * Upload and body limits. A visitor and then a user each start many large uploads at once
 * (19 MiB videos); then senders without a session post 1 MiB encrypted bodies to the sign-in
 * without pause, and a signed-in user 1 MiB bodies to a gift send. Meanwhile another signed-in
 * person makes small requests from a process of her own, whose times say what the attack costs
 * everyone else, and the server's memory is sampled.
 *
 * Bounds (the contract's limits, src/api/contract/media.ts and endpoint.ts): a visitor stores
 * nothing, a user no more than the uploads allowed in progress at once, no oversize body is
 * read (each is refused as too large), the server's memory grows by less than 64 MiB (uploads
 * stream to disk, bodies are not buffered whole), and the others' p99 stays under 50 ms.
 */
import { TEXT_BODY_TOO_LARGE } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { UPLOAD_IN_FLIGHT, UPLOAD_PATH } from '../../src/api/contract/media';
import { bystander } from './bystander';
import { apiHeaders, device, dropAgents, send, seal, signIn, userAccount, visitor, type Person } from './client';
import { Bounds, latencyBound, machineLoad, mib, ms, n, percentile, sleep, type Probe } from './probe';
import { intentKey } from './scenes';
import { startServer, type ProbeServer } from './server';

const UPLOAD_BYTES = 19 * 1024 * 1024;
const OVERSIZE_BYTES = 1024 * 1024;
const RSS_GROWTH_BOUND = 64 * 1024 * 1024;
const OTHERS_P99_BOUND_MS = 50;
const SENDERS = 8;

/** An MP4 as the server checks it (its first bytes), padded to `size`. */
function video(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  Buffer.from('\0\0\0\x18ftypmp42', 'latin1').copy(bytes);
  return bytes;
}

export const limitsProbe: Probe = {
  name: 'limits',
  summary: "parallel 19 MiB uploads by a visitor and a user, 1 MiB bodies with and without a session: bytes accepted, server memory, others' p99",
  budgetSeconds: { light: 45, full: 120 },
  async run({ light, checkout, note }) {
    const parallel = light ? 8 : 16;
    const floodMs = light ? 2_000 : 5_000;
    const server = await startServer({ checkout, env: { SEED_HOSTS: '2', SEED_USERS: '4' } });
    const sampler = memorySampler(server);
    try {
      const base = server.base;
      const user = await signIn(base, userAccount(1), '127.0.4.1');
      const other = await signIn(base, userAccount(2), '127.0.4.2');
      const guest = await visitor(base, 'limits-visitor-device', '127.0.4.3');
      // The other person asks from a process of her own: her times must not wait behind the attack's work in this one.
      const watch = bystander({
        url: base + endpoints.userInfo.path, headers: apiHeaders(other.token), body: seal({}), from: other.from, pauseMs: 10,
      });
      await sleep(1_000);
      const uploadsFrom = Date.now();
      sampler.start();

      note(`${parallel} parallel uploads by a visitor, then by a user`);
      const body = video(UPLOAD_BYTES);
      const uploads = async (who: Person) => {
        const answers = await Promise.all(Array.from({ length: parallel }, () =>
          send(base, 'POST', UPLOAD_PATH, body, { from: who.from, headers: { ...apiHeaders(who.token), 'content-type': 'video/mp4' } })
            .catch(() => null)));
        return answers.filter((a) => a?.envelope?.code === '0000').length;
      };
      const visitorStored = await uploads(guest);
      const userStored = await uploads(user);
      const bodiesFrom = Date.now();

      note(`${SENDERS} senders of 1 MiB bodies for ${floodMs / 1000} s`);
      const login = seal({ ...device('limits-probe'), account: userAccount(3), password: 'p'.repeat(Math.floor(OVERSIZE_BYTES * 0.75)) });
      const gift = seal({ toUserId: 100001, giftId: 1, giftNum: 1, idempotencyKey: intentKey(), note: 'g'.repeat(Math.floor(OVERSIZE_BYTES * 0.75)) });
      let sent = 0;
      let read = 0;
      const started = performance.now();
      await Promise.all(Array.from({ length: SENDERS }, async (_, s) => {
        const withSession = s === SENDERS - 1;
        while (performance.now() - started < floodMs) {
          const answer = await send(base, 'POST', withSession ? endpoints.sendGift.path : endpoints.login.path, withSession ? gift : login, {
            from: `127.0.5.${1 + s}`, headers: apiHeaders(withSession ? user.token : null),
          }).catch(() => null);
          sent += 1;
          // Refused as too large (or cut off while it streamed in) is not read; any other answer is.
          if (answer?.envelope && answer.envelope.message !== TEXT_BODY_TOO_LARGE) read += 1;
        }
      }));
      const load = machineLoad();
      const times = await watch.stop();
      const growth = sampler.stop();
      const between = (from: number, to: number) => times.filter((t) => t.at >= from && t.at < to).map((t) => t.ms);
      const baseline = between(0, uploadsFrom);
      const duringUploads = between(uploadsFrom, bodiesFrom);
      const duringBodies = between(bodiesFrom, Number.POSITIVE_INFINITY);

      const worstP99 = Math.max(percentile(duringUploads, 99), percentile(duringBodies, 99));
      const bounds = new Bounds();
      bounds.check(visitorStored === 0, `a visitor stored ${visitorStored} uploads (${mib(visitorStored * UPLOAD_BYTES)}; bound 0)`);
      bounds.check(userStored <= UPLOAD_IN_FLIGHT, `a user stored ${userStored} of ${parallel} parallel uploads (bound ${UPLOAD_IN_FLIGHT} in progress at once)`);
      bounds.check(read === 0, `${n(read)} oversize bodies read (bound 0)`);
      bounds.check(growth < RSS_GROWTH_BOUND, `server memory grew ${mib(growth)} (bound ${mib(RSS_GROWTH_BOUND)})`);
      const othersBound = latencyBound(light, OTHERS_P99_BOUND_MS, percentile(baseline, 99));
      bounds.check(worstP99 < othersBound, `others' p99 ${ms(worstP99)} (bound ${ms(othersBound)})`);
      return {
        figures: `uploads of ${parallel} × 19 MiB at once: visitor stored ${visitorStored} (${mib(visitorStored * UPLOAD_BYTES)}), `
          + `user stored ${userStored} (${mib(userStored * UPLOAD_BYTES)}); ${n(sent)} bodies of 1 MiB (${SENDERS - 1} senders signed out, 1 signed in), ${n(read)} read; `
          + `server memory +${mib(growth)}; others' p99 ${ms(percentile(baseline, 99))} alone, ${ms(percentile(duringUploads, 99))} during uploads, `
          + `${ms(percentile(duringBodies, 99))} during bodies (${load})`,
        broken: bounds.broken,
        numbers: {
          visitorStored, userStored, bodiesSent: sent, bodiesRead: read, rssGrowth: growth,
          othersAloneP99: percentile(baseline, 99), othersUploadsP99: percentile(duringUploads, 99), othersBodiesP99: percentile(duringBodies, 99),
        },
      };
    } finally {
      sampler.stop();
      dropAgents();
      await server.stop();
    }
  },
};

/** Samples the server's resident memory; `stop` answers the largest growth over the first sample. */
function memorySampler(server: ProbeServer) {
  let timer: NodeJS.Timeout | undefined;
  let first = 0;
  let peak = 0;
  const sample = () => {
    const rss = server.rssBytes();
    peak = Math.max(peak, rss);
  };
  return {
    start() {
      first = server.rssBytes();
      peak = first;
      timer = setInterval(sample, 25);
    },
    stop(): number {
      if (timer) {
        clearInterval(timer);
        timer = undefined;
        sample();
      }
      return Math.max(0, peak - first);
    },
  };
}
