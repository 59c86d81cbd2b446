/**
 * The probes' client: the API as the app speaks it (src/api/request.ts headers, the AES body
 * of src/api/codec.ts, the contract's paths), over node:http so that a request can come from
 * any loopback address (`from: '127.0.0.2'`, Linux routes all of 127/8 to the loopback), and
 * hub sockets (src/api/contract/realtime.ts frames) that can stop reading.
 *
 * A request answers what came back, whatever it is: a status, the raw text, and the envelope
 * when the text decrypts to one. Only a transport failure (refused, reset, timed out) throws.
 */
import { Agent, request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import { createAesCodec } from '../../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY } from '../../src/api/codes';
import { endpoints, type Endpoint } from '../../src/api/contract';
import { requestHeaders } from '../../src/api/request';

export const codec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);

export const PASSWORD = 'password1';

/** The device fields every sign-in carries (SPEC §3 stored auth data). */
export const device = (id: string) => ({
  deviceType: 'web', deviceId: id, deviceNo: id, osType: 'linux', osVersion: '6.1', appVersion: '1.0.34',
});

export interface Envelope {
  code: string;
  message: string;
  data?: unknown;
}

export interface Answer {
  status: number;
  text: string;
  envelope: Envelope | undefined;
  ms: number;
}

export interface SendOptions {
  /** The loopback address the request comes from; default 127.0.0.1. */
  from?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

const agents = new Map<string, Agent>();
const quiet = new WeakSet<object>();

/** One keep-alive agent per source address (each is its own client machine). */
function agentFor(from: string): Agent {
  let agent = agents.get(from);
  if (!agent) agents.set(from, (agent = new Agent({ keepAlive: true, maxSockets: 64, localAddress: from } as ConstructorParameters<typeof Agent>[0])));
  return agent;
}

/** Closes the pooled connections (a probe's end; a killed server's leftovers). */
export function dropAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/**
 * Answers repeat byte for byte (the key and IV are fixed): a flood's thousands of refusals are a
 * handful of texts, each decrypted once, so that the probe's own work does not take the CPU the
 * server needs.
 */
const opened = new Map<string, Envelope | undefined>();

/** The envelope of an encrypted answer, or undefined when it is not one. */
export function openEnvelope(text: string): Envelope | undefined {
  if (text.length > 512) return decryptEnvelope(text);
  if (!opened.has(text)) {
    if (opened.size > 10_000) opened.clear();
    opened.set(text, decryptEnvelope(text));
  }
  return opened.get(text);
}

function decryptEnvelope(text: string): Envelope | undefined {
  try {
    const value = JSON.parse(codec.decrypt(text)) as Partial<Envelope> | null;
    if (value && typeof value === 'object' && (typeof value.code === 'string' || typeof value.code === 'number')) {
      return { code: String(value.code), message: String(value.message ?? ''), data: value.data };
    }
  } catch {
    // Not an envelope.
  }
  return undefined;
}

/** One HTTP request with a body we choose; throws only when no answer came. */
export function send(base: string, method: string, path: string, body: string | Buffer | undefined, opts: SendOptions = {}): Promise<Answer> {
  const from = opts.from ?? '127.0.0.1';
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, {
      method,
      agent: agentFor(from),
      headers: { ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...opts.headers },
      timeout: opts.timeoutMs ?? 30_000,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, text, envelope: openEnvelope(text), ms: performance.now() - started });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`No answer from ${path} in ${opts.timeoutMs ?? 30_000} ms`)));
    req.on('error', reject);
    // A server that answers before the body is all sent (a refused upload) resets the socket under
    // the rest of the body; that error comes after the answer, on the socket, and means nothing more.
    req.on('socket', (socket) => {
      if (!quiet.has(socket)) {
        quiet.add(socket);
        socket.on('error', () => undefined);
      }
    });
    req.end(body);
  });
}

/** The headers of an API request (src/api/request.ts), signed in with `token` or not. */
export function apiHeaders(token: string | null): Record<string, string> {
  return requestHeaders(token ? { token, appId: 'web' } : null);
}

/** The wire body of a request object. */
export const seal = (body: unknown): string => codec.encrypt(JSON.stringify(body ?? {}));

/** An API request as the app sends it: POST, the headers, the encrypted JSON body. */
export function api(base: string, path: string, body: unknown, token: string | null, opts: SendOptions = {}): Promise<Answer> {
  return send(base, 'POST', path, seal(body), { ...opts, headers: { ...apiHeaders(token), ...opts.headers } });
}

/** Like `api`, but the envelope must be there; its data when it is a success, else throws with its message. */
export async function apiData<T = unknown>(base: string, endpoint: Endpoint, body: unknown, token: string | null, opts: SendOptions = {}): Promise<T> {
  const answer = await api(base, endpoint.path, body, token, opts);
  if (!answer.envelope) throw new Error(`${endpoint.path}: HTTP ${answer.status} ${answer.text.slice(0, 120)}`);
  if (answer.envelope.code !== '0000') throw new Error(`${endpoint.path}: ${answer.envelope.code} ${answer.envelope.message}`);
  return answer.envelope.data as T;
}

export interface Person {
  account: string;
  userId: number;
  userType: number;
  token: string;
  yxAccid: string;
  imToken: string;
  nickname: string;
  /** The loopback address this person's requests come from. */
  from: string;
}

/** Signs in with the seeded password and reads the person's IM account. */
export async function signIn(base: string, account: string, from = '127.0.0.1'): Promise<Person> {
  const signed = await apiData<{ token: string; userId: number; userType: number }>(
    base, endpoints.login, { ...device(`probe-${account}`), account, password: PASSWORD }, null, { from },
  );
  const mine = await apiData<{ yxAccid: string; imToken: string; nickname: string }>(base, endpoints.userInfo, {}, signed.token, { from });
  return { account, ...signed, yxAccid: mine.yxAccid, imToken: mine.imToken, nickname: mine.nickname, from };
}

/** A visitor of a new device (SPEC §6). */
export async function visitor(base: string, deviceId: string, from = '127.0.0.1'): Promise<Person> {
  const signed = await apiData<{ token: string; userId: number; userType: number }>(base, endpoints.visit, device(deviceId), null, { from });
  const mine = await apiData<{ yxAccid: string; imToken: string; nickname: string }>(base, endpoints.userInfo, {}, signed.token, { from });
  return { account: deviceId, ...signed, yxAccid: mine.yxAccid, imToken: mine.imToken, nickname: mine.nickname, from };
}

/** Seeded sign-ins (server/db/seed.ts): host1@example.com …, user1@example.com …. */
export const hostAccount = (i: number) => `host${i}@example.com`;
export const userAccount = (i: number) => `user${i}@example.com`;

/** A distinct loopback address for the n-th simulated client (127.0.1.1, 127.0.1.2, …). */
export const clientAddress = (n: number) => `127.0.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;

export interface HubReplyFrame {
  id: number | string | null;
  ok: boolean;
  result?: unknown;
  code?: number;
  message?: string;
}

/** A hub socket: request/reply by id, the pushes it received, and a way to stop reading. */
export interface HubSocket {
  readonly ws: WebSocket;
  /** Sends an op and waits for its reply (rejects on `ok: false` with the reply attached). */
  call(op: string, args?: object, timeoutMs?: number): Promise<unknown>;
  /** The reply of an op whatever it says; null when the socket closed first. */
  ask(op: string, args?: object, timeoutMs?: number): Promise<HubReplyFrame | null>;
  pushes: Record<string, unknown>[];
  /** Close code and reason once closed. */
  closed: Promise<{ code: number; reason: string }>;
  isOpen(): boolean;
  /** Stops reading from the socket (a slow member); the kernel's buffers then fill and the server's. */
  stopReading(): void;
  /** Reads again (a paused socket does not notice that the server cut it until it reads). */
  resumeReading(): void;
  close(): void;
}

export class HubRefusal extends Error {
  constructor(readonly reply: HubReplyFrame) {
    super(`${reply.code}: ${reply.message}`);
  }
}

export async function hubSocket(base: string, path: string, opts: { from?: string; keepPushes?: boolean } = {}): Promise<HubSocket> {
  const ws = new WebSocket(base.replace(/^http/, 'ws') + path, { localAddress: opts.from ?? '127.0.0.1', perMessageDeflate: false });
  const waiting = new Map<number, (frame: HubReplyFrame | null) => void>();
  const pushes: Record<string, unknown>[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.once('close', (code, reason) => {
      for (const done of waiting.values()) done(null);
      waiting.clear();
      resolve({ code, reason: reason.toString() });
    });
  });
  ws.on('error', () => undefined);
  ws.on('message', (data) => {
    let frame: HubReplyFrame & { push?: Record<string, unknown> };
    try {
      frame = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (frame.push) {
      if (opts.keepPushes !== false) pushes.push(frame.push);
      return;
    }
    if (typeof frame.id !== 'number') return;
    const done = waiting.get(frame.id);
    waiting.delete(frame.id);
    done?.(frame);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`Upgrade refused: HTTP ${res.statusCode}`)));
  });
  let next = 1;

  function ask(op: string, args: object = {}, timeoutMs = 10_000): Promise<HubReplyFrame | null> {
    if (ws.readyState !== ws.OPEN) return Promise.resolve(null);
    const id = next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(null);
      }, timeoutMs);
      waiting.set(id, (frame) => {
        clearTimeout(timer);
        resolve(frame);
      });
      // The id and op last: a fuzzed argument named `id` or `op` must not replace them.
      ws.send(JSON.stringify({ ...args, id, op }));
    });
  }

  return {
    ws,
    pushes,
    closed,
    ask,
    async call(op, args, timeoutMs) {
      const reply = await ask(op, args, timeoutMs);
      if (!reply) throw new Error(`${path} ${op}: no reply (socket closed or silent)`);
      if (!reply.ok) throw new HubRefusal(reply);
      return reply.result;
    },
    isOpen: () => ws.readyState === ws.OPEN,
    stopReading: () => ws.pause(),
    resumeReading: () => ws.resume(),
    close: () => ws.terminate(),
  };
}
