/**
 * A fuzz of every door: each endpoint of the contract, the upload, the translator stand-in,
 * the dev shell's routes, the server's GET paths, and every hub path. Bodies come from the
 * contract's schemas (mostly valid, so the handlers are reached, with known people, calls and
 * rooms in them), mutated (a field replaced by a nasty value, dropped, or an extra one), random
 * JSON, oversize strings, and broken transport (bad base64, cut or flipped ciphertext, plain
 * JSON, binary); with a user's, a host's or a visitor's session, a bogus one, or none.
 *
 * Bounds: no HTTP 5xx and no hub reply with code 500 (a fault in a request is answered, never
 * a server error), and the server alive and answering afterwards (a sign-in, a profile, a hub
 * login).
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type * as z from 'zod/mini';
import { endpoints, type Endpoint } from '../../src/api/contract';
import { UPLOAD_PATH } from '../../src/api/contract/media';
import { ChatroomOps, HubCode, ImOps, PresenceOps, RealtimePath, RtcOps, SignalOps } from '../../src/api/contract/realtime';
import { TRANSLATOR_LOCAL_PATH } from '../../src/api/contract/translator';
import {
  apiData, apiHeaders, clientAddress, codec, dropAgents, hostAccount, hubSocket, send, signIn, userAccount, visitor,
  type Answer, type HubSocket, type Person,
} from './client';
import { Bounds, inParallel, n, random, type Probe } from './probe';
import { connectCall, goLive, present } from './scenes';
import { startServer } from './server';
import { arbitraryOf, jsonSchemaOf, nasty, oversize, type KnownValues } from './shapes';

/** One HTTP request of the fuzz. */
interface Case {
  target: string;
  method: string;
  path: string;
  body: string | Buffer | undefined;
  headers: Record<string, string>;
}

type Roles = { user: Person; host: Person; visitor: Person };

const SHELL_POSTS = ['/shell/api/open', '/shell/api/drop', '/shell/api/faults', '/shell/api/live/boost', '/shell/api/live/forceEnd',
  '/shell/api/live/serviceGag', '/shell/api/visitor'];
const SHELL_GETS = ['/shell', '/shell/shell.js', '/shell/api/accounts', '/shell/api/faults'];
const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'video/mp4', 'video/webm', 'text/plain', 'application/octet-stream', ''];
const MAGIC: Buffer[] = [
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('GIF89a'),
  Buffer.from('RIFF\0\0\0\0WEBP'), Buffer.from('\0\0\0\x18ftypmp42'), Buffer.from([0x1a, 0x45, 0xdf, 0xa3]),
];

export const fuzzProbe: Probe = {
  name: 'fuzz',
  summary: 'schema-shaped, mutated, oversize and broken requests to every endpoint, upload, shell and hub path: no 5xx, server alive',
  budgetSeconds: { light: 60, full: 300 },
  async run({ light, checkout, note }) {
    const httpTotal = light ? 700 : 10_500;
    const framesPerSocket = light ? 20 : 250;
    const server = await startServer({ checkout, env: { SEED_HOSTS: '6', SEED_USERS: '6', CALL_BILLING_PERIOD_MS: '2000' } });
    try {
      const base = server.base;
      const user = await signIn(base, userAccount(1), clientAddress(1));
      const host = await signIn(base, hostAccount(1), clientAddress(2));
      const host2 = await signIn(base, hostAccount(2), clientAddress(3));
      const guest = await visitor(base, 'fuzz-visitor-device', clientAddress(4));
      const presence = await present(base, host);
      const call = await connectCall(base, user, host);
      const live = await goLive(base, host2);
      const known: KnownValues = {
        userIds: [user.userId, host.userId, host2.userId, guest.userId, 100003, 200002],
        accids: [user.yxAccid, host.yxAccid, host2.yxAccid, guest.yxAccid],
        channelIds: [call.channelId, live.agoraChannelId],
        roomIds: [live.yxRoomId],
        giftIds: [1, 2, 3, 8, 14, 15],
        ids: [1, 2, 3, 5, 8],
      };
      note("set up");
      const roles: Roles = { user, host, visitor: guest };
      const rnd = random(2025);
      const cases = [
        ...apiCases(known, roles, rnd, httpTotal),
        ...uploadCases(roles, rnd, Math.round(httpTotal * 0.03)),
        ...shellCases(known, rnd, Math.round(httpTotal * 0.04)),
        ...translatorCases(rnd, Math.round(httpTotal * 0.01)),
        ...getCases(rnd, Math.round(httpTotal * 0.02)),
      ];
      // Mixed, so that no endpoint's run meets the same server state as its neighbour's.
      for (let i = cases.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [cases[i], cases[j]] = [cases[j]!, cases[i]!];
      }
      note(`${cases.length} HTTP requests`);

      const distinct = new Set<string>();
      const fives = new Map<string, number>();
      let unanswered = 0;
      await inParallel(cases, 6, async (c, index) => {
        let answer: Answer;
        try {
          answer = await send(base, c.method, c.path, c.body, { from: clientAddress(100 + (index % 20)), headers: c.headers, timeoutMs: 20_000 });
        } catch {
          unanswered += 1;
          return;
        }
        distinct.add(`${answer.status} ${answer.envelope ? `${answer.envelope.code} ${answer.envelope.message}` : answer.text.slice(0, 80)}`);
        if (answer.status >= 500) fives.set(`${c.target} HTTP ${answer.status}`, (fives.get(`${c.target} HTTP ${answer.status}`) ?? 0) + 1);
      });

      note('hub frames');
      const hub = await fuzzHub(base, { user, host, visitor: guest }, call.channelId, live.yxRoomId, known, rnd, framesPerSocket);
      presence.close();

      // Alive and answering: a sign-in, a profile and a hub login all work.
      let aliveAfter = server.alive();
      try {
        const again = await signIn(base, userAccount(2), clientAddress(5));
        const socket = await hubSocket(base, RealtimePath.im, { from: again.from });
        await socket.call('login', { account: again.yxAccid, token: again.imToken });
        socket.close();
      } catch {
        aliveAfter = false;
      }

      const requests = cases.length + hub.frames;
      const fiveCount = [...fives.values()].reduce((a, b) => a + b, 0);
      const worst = [...fives].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `${k} ×${v}`).join(', ');
      const bounds = new Bounds();
      bounds.check(fiveCount === 0, `${n(fiveCount)} HTTP 5xx (bound 0: ${worst})`);
      bounds.check(hub.faults === 0, `${n(hub.faults)} hub replies with code 500 (bound 0: ${hub.faultOps.slice(0, 3).join(', ')})`);
      bounds.check(aliveAfter, 'the server did not answer after the fuzz');
      bounds.check(unanswered === 0, `${n(unanswered)} requests got no answer`);
      return {
        figures: `${n(requests)} requests (${n(cases.length)} HTTP to ${n(new Set(cases.map((c) => c.target)).size)} paths, `
          + `${n(hub.frames)} hub frames on ${hub.paths} paths, ${n(hub.cuts)} sockets cut), 5xx ${n(fiveCount)}, hub faults ${n(hub.faults)}, `
          + `unanswered ${n(unanswered)} HTTP + ${n(hub.unanswered)} frames, distinct answers ${n(distinct.size)}, `
          + `alive after ${aliveAfter ? 'yes' : 'NO'}`,
        broken: bounds.broken,
        numbers: { requests, http: cases.length, frames: hub.frames, fiveXX: fiveCount, hubFaults: hub.faults, distinct: distinct.size, unanswered },
      };
    } finally {
      dropAgents();
      await server.stop();
    }
  },
};

const pick = <T>(rnd: () => number, items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;

/** A session for the request: mostly the one the endpoint needs, sometimes another, bogus or none. */
function tokenFor(auth: Endpoint['auth'], roles: Roles, rnd: () => number): string | null {
  const r = rnd();
  if (r < 0.1) return null;
  if (r < 0.15) return randomBytes(32).toString('hex');
  if (r < 0.18) return 'x'.repeat(4096);
  if (auth === 'none' && r < 0.6) return null;
  return pick(rnd, [roles.user.token, roles.user.token, roles.host.token, roles.visitor.token]);
}

/** Headers of the request: the app's, sometimes with an odd app version or content type. */
function headersFor(token: string | null, rnd: () => number): Record<string, string> {
  const headers = apiHeaders(token);
  const r = rnd();
  if (r < 0.03) delete headers['x-app-version'];
  else if (r < 0.06) headers['x-app-version'] = pick(rnd, ['0.0.1', '99999999999999999999.1', 'abc', '1.0.34'.repeat(500), '-1', '1..0']);
  else if (r < 0.1) headers['content-type'] = pick(rnd, ['application/json', 'multipart/form-data; boundary=x', 'text/html', 'application/x-www-form-urlencoded']);
  return headers;
}

/** A body with one field replaced by a nasty value, dropped, or an extra one added. */
function mutate(body: unknown, rnd: () => number, value: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return value;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const r = rnd();
  if (keys.length > 0 && r < 0.6) copy[pick(rnd, keys)] = value;
  else if (keys.length > 0 && r < 0.8) delete copy[pick(rnd, keys)];
  else copy[pick(rnd, ['extra', 'userId', 'isAdmin', 'amount', 'balance', 'price', '__proto__', 'constructor'])] = value;
  return copy;
}

/** A wire body that is not a good ciphertext of JSON. */
function brokenWire(good: string, rnd: () => number): string | Buffer {
  switch (Math.floor(rnd() * 9)) {
    case 0: return '';
    case 1: return good.slice(0, Math.max(1, Math.floor(good.length * rnd())));
    case 2: {
      const bytes = Buffer.from(good, 'base64');
      bytes[Math.floor(rnd() * bytes.length)]! ^= 0xff;
      return bytes.toString('base64');
    }
    case 3: return randomBytes(16 * (1 + Math.floor(rnd() * 8))).toString('base64');
    case 4: return Buffer.from(randomBytes(64 + Math.floor(rnd() * 512)));
    case 5: return JSON.stringify({ plain: 'json', account: 'a' });
    case 6: return `${good}!!!`;
    case 7: return codec.encrypt('not json {');
    default: return 'A'.repeat(16 * 1024 * (1 + Math.floor(rnd() * 32)));
  }
}

function apiCases(known: KnownValues, roles: Roles, rnd: () => number, total: number): Case[] {
  const list = Object.entries(endpoints) as [string, Endpoint][];
  const perEndpoint = Math.ceil(total / list.length);
  const cases: Case[] = [];
  let seed = 1;
  for (const [name, endpoint] of list) {
    const shaped = fc.sample(arbitraryOf(jsonSchemaOf(endpoint.request as z.ZodMiniType), known), { seed: seed++, numRuns: perEndpoint });
    const odd = fc.sample(nasty, { seed: seed++, numRuns: perEndpoint });
    for (let i = 0; i < perEndpoint; i++) {
      // Logging out a real session would leave the rest of the fuzz signed out.
      const token = name === 'logout' ? null : tokenFor(endpoint.auth, roles, rnd);
      const headers = headersFor(token, rnd);
      const kind = i % 10;
      let body: unknown = shaped[i];
      if (kind === 4 || kind === 5) body = mutate(body, rnd, odd[i]);
      else if (kind === 6) body = odd[i];
      // Mostly up to 64 K characters, one in ten up to 512 K: each costs the server its decryption.
      else if (kind === 7) body = mutate(body, rnd, oversize(1_000 + Math.floor(rnd() * (rnd() < 0.1 ? 512_000 : 64_000))));
      const wire = codec.encrypt(JSON.stringify(body ?? null));
      cases.push({ target: endpoint.path, method: 'POST', path: endpoint.path, headers, body: kind >= 8 ? brokenWire(wire, rnd) : wire });
    }
  }
  return cases;
}

function uploadCases(roles: Roles, rnd: () => number, count: number): Case[] {
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const token = tokenFor('session', roles, rnd);
    const headers: Record<string, string> = { ...apiHeaders(token), 'content-type': pick(rnd, UPLOAD_TYPES) };
    const size = pick(rnd, [0, 1, 7, 100, 4096, 64 * 1024, 300 * 1024]);
    const junk = randomBytes(size);
    const body = rnd() < 0.6 ? Buffer.concat([pick(rnd, MAGIC), junk]) : junk;
    cases.push({ target: UPLOAD_PATH, method: 'POST', path: UPLOAD_PATH, headers, body });
  }
  return cases;
}

function shellCases(known: KnownValues, rnd: () => number, count: number): Case[] {
  const bodies = fc.sample(fc.oneof(
    fc.record({ userId: fc.oneof(fc.constantFrom(...known.userIds), fc.integer()), frame: fc.option(fc.integer(), { nil: undefined }) }),
    fc.record({ account: fc.oneof(fc.constantFrom(...known.accids), fc.string()), on: fc.boolean(), gagged: fc.boolean() }),
    nasty,
  ), { seed: 77, numRuns: count });
  return bodies.map((value, i): Case => {
    const path = i % 5 === 4 ? pick(rnd, SHELL_GETS) + (rnd() < 0.5 ? `?userId=${encodeURIComponent(typeof value === 'object' ? JSON.stringify(value) : String(value))}` : '') : pick(rnd, SHELL_POSTS);
    if (path.startsWith('/shell/api/faults') && i % 5 !== 4) {
      // Setting real faults would make base-config requests answer 500 by design: only a count of 0.
      const body = JSON.stringify({ ...(typeof value === 'object' && value ? value : {}), baseConfigFailures: 0 });
      return { target: '/shell/api/faults', method: 'POST', path, body, headers: { 'content-type': 'application/json' } };
    }
    if (i % 5 === 4) return { target: path.split('?')[0]!, method: 'GET', path, body: undefined, headers: {} };
    const raw = rnd() < 0.15 ? '{"userId":' : JSON.stringify(value ?? null);
    return { target: path, method: 'POST', path, body: raw, headers: { 'content-type': rnd() < 0.9 ? 'application/json' : 'text/plain' } };
  });
}

function translatorCases(rnd: () => number, count: number): Case[] {
  const bodies = fc.sample(fc.oneof(fc.array(fc.record({ Text: fc.string({ unit: 'binary', maxLength: 200 }) }), { maxLength: 5 }), nasty), { seed: 91, numRuns: count });
  return bodies.map((value) => ({
    target: TRANSLATOR_LOCAL_PATH,
    method: 'POST',
    path: `${TRANSLATOR_LOCAL_PATH}?api-version=3.0&to=${pick(rnd, ['en', 'zh-Hans', 'xx', '', 'en&to=es'])}${rnd() < 0.3 ? '&from=en' : ''}`,
    body: JSON.stringify(value ?? null),
    headers: {
      'content-type': 'application/json',
      'Ocp-Apim-Subscription-Key': rnd() < 0.8 ? 'dev-translator-key' : 'wrong',
      'Ocp-Apim-Subscription-Region': 'local',
    },
  }));
}

function getCases(rnd: () => number, count: number): Case[] {
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const dir = pick(rnd, ['/media/', '/avatars/', '/gifts/', '/banners/', '/', '/assets/']);
    const name = pick(rnd, [
      `${randomBytes(16).toString('hex')}.png`, '..%2f..%2fetc%2fpasswd', 'rose.svg', '%00', 'a'.repeat(2000), '😀.png', 'x.mp4', '',
    ]);
    const range = pick(rnd, [undefined, 'bytes=0-10', 'bytes=-5', 'bytes=99999999999999999999-', 'bytes=5-1', 'bytes=a-b', 'bytes=0-0,5-6']);
    cases.push({ target: `GET ${dir}`, method: 'GET', path: dir + name, body: undefined, headers: range ? { range } : {} });
  }
  return cases;
}

interface HubFigures {
  frames: number;
  faults: number;
  faultOps: string[];
  unanswered: number;
  cuts: number;
  paths: number;
}

/** Each hub path: a signed-in socket and one that never signed in, each fed fuzzed frames. */
async function fuzzHub(
  base: string, roles: Roles, channelId: string, roomId: string, known: KnownValues, rnd: () => number, framesPerSocket: number,
): Promise<HubFigures> {
  const figures: HubFigures = { frames: 0, faults: 0, faultOps: [], unanswered: 0, cuts: 0, paths: 0 };
  const tokens = await apiData<{ rtmToken: string; rtcToken: string }>(base, endpoints.getAgoraRtmToken, {}, roles.user.token, { from: roles.user.from });
  const { user } = roles;
  const paths: [string, Record<string, z.ZodMiniType>, ((s: HubSocket) => Promise<unknown>) | null][] = [
    [RealtimePath.im, ImOps, (s) => s.call('login', { account: user.yxAccid, token: user.imToken })],
    [RealtimePath.chatroom, ChatroomOps, (s) => s.call('enter', { roomId, account: user.yxAccid, token: user.imToken, nick: user.nickname })],
    [RealtimePath.signal, SignalOps, (s) => s.call('login', { account: user.yxAccid, token: tokens.rtmToken })],
    [RealtimePath.presence, PresenceOps, (s) => s.call('auth', { token: user.token })],
    [RealtimePath.rtc, RtcOps, (s) => s.call('join', { channelId, account: user.yxAccid, token: tokens.rtcToken })],
  ];
  figures.paths = paths.length;
  let seed = 500;
  await Promise.all(paths.flatMap(([path, ops, signIn]) => [signIn, null].map(async (enter) => {
    const names = Object.keys(ops);
    const samples = new Map(names.map((name) => [name, fc.sample(arbitraryOf(jsonSchemaOf(ops[name]!), known), { seed: seed++, numRuns: framesPerSocket })]));
    const odd = fc.sample(nasty, { seed: seed++, numRuns: framesPerSocket });
    let socket: HubSocket | null = null;
    for (let i = 0; i < framesPerSocket; i++) {
      if (!socket || !socket.isOpen()) {
        if (socket) figures.cuts += 1;
        socket = await hubSocket(base, path, { from: user.from, keepPushes: false });
        await enter?.(socket).catch(() => undefined);
      }
      const op = pick(rnd, [...names, 'nope']);
      const args = (samples.get(op) ?? odd)[i] as Record<string, unknown> | undefined;
      const kind = i % 10;
      figures.frames += 1;
      if (kind === 9) {
        // Not a request the hub can answer by id: not JSON, binary, or an odd id.
        const raw = pick(rnd, ['not json', '[1,2,3]', '"x"', 'null', JSON.stringify({ id: { a: 1 }, op }), JSON.stringify({ id: 'i'.repeat(65), op })]);
        socket.ws.send(rnd() < 0.2 ? randomBytes(32) : raw);
        continue;
      }
      const frame = kind >= 6 ? mutate(args, rnd, odd[i]) : args;
      const reply = await socket.ask(op, typeof frame === 'object' && frame !== null && !Array.isArray(frame) ? frame : { value: frame }, 3_000);
      if (reply === null) {
        if (socket.isOpen()) figures.unanswered += 1;
        continue;
      }
      if (!reply.ok && reply.code === HubCode.internal) {
        figures.faults += 1;
        figures.faultOps.push(`${path} ${op}`);
      }
    }
    socket?.close();
  })));
  return figures;
}
