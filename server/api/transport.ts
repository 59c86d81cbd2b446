/**
 * The encrypted transport of SPEC §7 on the server side. Every endpoint of the contract
 * is a `POST` whose body is base64 AES ciphertext of the JSON request, and whose answer is
 * HTTP 200 with the ciphertext of the envelope `{ code, message, data }`.
 *
 * A request passes, in order: the app version check (1004), the session check for
 * `auth: 'session'` endpoints (1005), the visitor check (1020, unless the contract marks the
 * endpoint `visitors: 'allowed'`), all three before a byte of the body is read; then the
 * body limit of the endpoint (src/api/contract/endpoint.ts `bodyLimitOf`: a larger body is
 * refused while it streams in, with TEXT_BODY_TOO_LARGE, never buffered or decrypted), then
 * decryption, JSON parsing and the contract's request schema. Any failure of the last three,
 * or a body Fastify cannot read, gets the same '1000' envelope, byte for byte, so the answer
 * says nothing about what was wrong.
 * The handler's result is checked against the contract's response schema before it goes
 * out; a mismatch is a server bug and answers 500.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import type { AesCodec } from '../../src/api/codec';
import {
  Header, MIN_APP_VERSION, ResultCode, SUCCESS, TEXT_BODY_TOO_LARGE, TEXT_UPDATE_REQUIRED, TEXT_VISITOR_REFUSED,
} from '../../src/api/codes';
import { bodyLimitOf, type Endpoint } from '../../src/api/contract';
import type { AuthSession } from '../auth/sessions';

export const TEXT_INVALID_REQUEST = 'Invalid request.';
export const TEXT_SESSION_EXPIRED = 'Your session has expired. Please log in again.';

/** A result the client is meant to read: answered as an envelope with this code and message. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiContext<E extends Endpoint> {
  body: z.output<E['request']>;
  /** The caller, from the login token. Present on every `auth: 'session'` endpoint, null on the others. */
  session: AuthSession | null;
  /** The `x-app-id` header ('' when absent). */
  appId: string;
  /** The caller's address (Fastify's `request.ip`: the socket's, or X-Forwarded-For's only behind a trusted proxy). */
  address: string;
}

export type Handler<E extends Endpoint> = (
  ctx: ApiContext<E>,
) => z.input<E['response']> | Promise<z.input<E['response']>>;

/** The endpoints among a module's exports (contract modules also export their schemas). */
type EndpointKeys<M> = { [K in keyof M]: M[K] extends Endpoint ? K : never }[keyof M];

/** One handler for each endpoint of a contract module, and no other. */
export type HandlersOf<M> = { [K in EndpointKeys<M>]: M[K] extends Endpoint ? Handler<M[K]> : never };

export interface ApiRoute {
  endpoint: Endpoint;
  handler: Handler<Endpoint>;
}

export function isEndpoint(value: unknown): value is Endpoint {
  const e = value as Partial<Endpoint> | null;
  return typeof e?.path === 'string' && (e.method === 'POST' || e.method === 'GET') && !!e.request && !!e.response;
}

/** The session of an `auth: 'session'` endpoint; the transport has already refused callers without one. */
export function requireSession(ctx: { session: AuthSession | null }): AuthSession {
  if (!ctx.session) throw new ApiError(ResultCode.authFailed, TEXT_SESSION_EXPIRED);
  return ctx.session;
}

/** Numeric, component-wise comparison: '1.0.10' > '1.0.9'; a missing component counts as 0. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split('.').map((p) => Number(/^\d+/.exec(p.trim())?.[0] ?? 0));
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

const REFUSED = Symbol('refused');

export interface TransportOptions {
  codec: AesCodec;
  findSession(token: string): AuthSession | undefined;
  routes: readonly ApiRoute[];
}

/**
 * Registers the routes in an encapsulated context: its body parser and error handler
 * apply to the API only.
 */
export async function encryptedApi(api: FastifyInstance, { codec, findSession, routes }: TransportOptions): Promise<void> {
  const seal = (envelope: { code: string; message: string; data?: unknown }) => codec.encrypt(JSON.stringify(envelope));
  const INVALID = seal({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
  const UPDATE_REQUIRED = seal({ code: ResultCode.updateRequired, message: TEXT_UPDATE_REQUIRED });
  const SESSION_EXPIRED = seal({ code: ResultCode.authFailed, message: TEXT_SESSION_EXPIRED });

  const answer = (reply: FastifyReply, wire: string) =>
    reply.code(200).header('content-type', 'text/plain;charset=utf-8').header('cache-control', 'no-store').send(wire);
  const TOO_LARGE = seal({ code: ResultCode.invalidRequest, message: TEXT_BODY_TOO_LARGE });
  const VISITOR_REFUSED = seal({ code: ResultCode.visitorRefused, message: TEXT_VISITOR_REFUSED });

  // Every body is taken as text whatever its content type; deciding whether it is usable is ours.
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  api.setErrorHandler((error: FastifyError, request, reply) => {
    // Over the endpoint's limit (by content-length, or while it streams in): said plainly, the limit is no secret.
    // The rest of the body is not read: the connection closes once the answer is out.
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return answer(reply.header('connection', 'close'), TOO_LARGE);
    // Fastify's other client errors (bad content length, ...) are unreadable bodies.
    if (error.statusCode !== undefined && error.statusCode < 500) return answer(reply, INVALID);
    request.log.error(error);
    return reply.code(500).type('text/plain; charset=utf-8').send('Internal Server Error');
  });

  /** The request object, or REFUSED when the body is not ciphertext of JSON matching the schema. */
  function open(body: unknown, schema: z.ZodMiniType): unknown {
    if (typeof body !== 'string') return REFUSED;
    try {
      const parsed = schema.safeParse(JSON.parse(codec.decrypt(body)));
      return parsed.success ? parsed.data : REFUSED;
    } catch {
      return REFUSED;
    }
  }

  /** The caller of each admitted request, found before its body was read. */
  const callers = new WeakMap<FastifyRequest, AuthSession | null>();

  /** The refusal owed before the body is read (version, session, visitor), or null to go on. */
  function gate(endpoint: Endpoint, request: FastifyRequest): string | null {
    if (compareVersions(header(request, Header.appVersion), MIN_APP_VERSION) < 0) return UPDATE_REQUIRED;
    if (endpoint.auth !== 'session') {
      callers.set(request, null);
      return null;
    }
    const token = header(request, Header.loginToken) || header(request, Header.anchorToken);
    const session = (token && findSession(token)) || null;
    if (!session) return SESSION_EXPIRED;
    if (session.isVisitor && endpoint.visitors !== 'allowed') return VISITOR_REFUSED;
    callers.set(request, session);
    return null;
  }

  /**
   * Whether a request answered before its body was read has a body worth not reading: one over
   * the limit, or of unknown length. Node would read and drop it to keep the connection; closing
   * the connection after the answer spares that. A small body is dropped and the connection kept.
   */
  const closeUnread = (request: FastifyRequest, limit: number) =>
    request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > limit;

  for (const { endpoint, handler } of routes) {
    if (endpoint.method !== 'POST') throw new Error(`${endpoint.path}: only POST endpoints are carried encrypted.`);
    const bodyLimit = bodyLimitOf(endpoint);
    const options = {
      bodyLimit,
      // onRequest runs before Fastify reads the body: a refused caller costs no reading and no decryption.
      onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
        const refusal = gate(endpoint, request);
        if (refusal === null) return;
        if (closeUnread(request, bodyLimit)) reply.header('connection', 'close');
        return answer(reply, refusal);
      },
    };
    api.post(endpoint.path, options, async (request, reply) => {
      const session = callers.get(request) ?? null;
      const body = open(request.body, endpoint.request);
      if (body === REFUSED) return answer(reply, INVALID);

      let data: unknown;
      try {
        data = await handler({ body, session, appId: header(request, Header.appId), address: request.ip });
      } catch (err) {
        if (err instanceof ApiError) return answer(reply, seal({ code: err.code, message: err.message }));
        throw err;
      }
      const shaped = endpoint.response.safeParse(data);
      if (!shaped.success) {
        throw new Error(`${endpoint.path} answered outside its contract: ${JSON.stringify(shaped.error.issues)}`);
      }
      return answer(reply, seal({ code: SUCCESS, message: 'success', data: shaped.data }));
    });
  }
}
