/**
 * One hub connection and the frame loop shared by every path (src/api/contract/realtime.ts
 * has the protocol): size limit, rate limit, JSON parsing, op lookup, argument validation
 * against the contract's schema, exactly one reply per request, and pushes. A fault in a frame
 * is answered, never thrown: the loop outlives whatever a client sends.
 *
 * Limits: a socket sending faster than HUB_FRAME_RATE allows on its path is closed
 * (HubClose.tooManyFrames), and cut outright if it has not gone a moment later; a socket
 * leaving more than MAX_UNREAD_BYTES unread is cut (a slow or stopped reader would otherwise
 * hold everything pushed to it in the server's memory). Chat rooms push every member's lines
 * to every member, so theirs is small.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type * as z from 'zod/mini';
import {
  HUB_FRAME_RATE, HubClose, HubCode, MAX_FRAME_BYTES, RealtimePath, type HubReply, type RequestId,
} from '../../src/api/contract/realtime';

/** A refusal the client reads: answered as `{ id, ok: false, code, message }`. */
export class HubError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'HubError';
  }
}

/**
 * What the hub keeps unread for a socket before it cuts it (the client re-syncs as after a
 * dropped link). In a chat room 256 KiB: some 100 of its longest lines beyond what the
 * network's buffers hold, and 25 MiB for a hundred members who stop reading. Elsewhere 8 MiB,
 * so that an IM login's replay of what a client missed goes out whole.
 */
export const MAX_UNREAD_BYTES: Readonly<Record<RealtimePath, number>> = {
  [RealtimePath.im]: 8 * 1024 * 1024,
  [RealtimePath.chatroom]: 256 * 1024,
  [RealtimePath.signal]: 8 * 1024 * 1024,
  [RealtimePath.presence]: 8 * 1024 * 1024,
  [RealtimePath.rtc]: 8 * 1024 * 1024,
};

/** How long a socket closed for its rate may take to go before it is cut. */
const CLOSE_GRACE_MS = 1000;

let nextConnId = 1;

export class Conn {
  readonly id = nextConnId++;
  /** The IM / chat-room / signalling account (yxAccid) once logged in; on presence, the user's yxAccid. */
  account: string | null = null;
  /** The app user, when known (presence). */
  userId: number | null = null;
  /** The app session (login token) this socket authenticated under, when known: logout closes its sockets. */
  session: string | null = null;
  /** Answered the last heartbeat ping. */
  alive = true;
  /** Set when the hub closed the socket on purpose (kick, shutdown); the services read it on close. */
  closedBy: 'kick' | 'server' | 'drop' | null = null;

  constructor(
    readonly path: RealtimePath,
    readonly ws: WebSocket,
  ) {}

  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  send(frame: object): void {
    if (!this.open) return;
    if (this.ws.bufferedAmount > MAX_UNREAD_BYTES[this.path]) {
      this.terminate('drop');
      return;
    }
    this.ws.send(JSON.stringify(frame));
  }

  push(payload: object): void {
    this.send({ push: payload });
  }

  close(code: number, reason: string, by: Conn['closedBy'] = 'server'): void {
    this.closedBy ??= by;
    if (this.ws.readyState === this.ws.CLOSED) return;
    this.ws.close(code, reason);
  }

  /** Cuts the socket without a closing handshake, as a network fault would. */
  terminate(by: Conn['closedBy'] = 'drop'): void {
    this.closedBy ??= by;
    this.ws.terminate();
  }
}

export interface OpContext {
  /** Runs after the reply went out (a login's replay must follow its answer). */
  afterReply(fn: () => void): void;
}

export interface Op<S extends z.ZodMiniType = z.ZodMiniType> {
  schema: S;
  run(conn: Conn, args: z.output<S>, ctx: OpContext): unknown;
}

/** An op whose argument type comes from its schema. */
export const op = <S extends z.ZodMiniType>(schema: S, run: Op<S>['run']): Op<S> => ({ schema, run });

export interface Service {
  ops: Readonly<Record<string, Op>>;
  /** A socket was accepted on this path (the upgrade request carries its query). */
  opened?(conn: Conn, url: URL): void;
  /** The socket closed, for whatever reason. */
  closed?(conn: Conn): void;
}

export type FrameRate = (typeof HUB_FRAME_RATE)[RealtimePath];

/** A token bucket of frames: `burst` at once, refilled at `perSecond`. */
export class FrameBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: FrameRate,
    now = performance.now(),
  ) {
    this.tokens = rate.burst;
    this.last = now;
  }

  /** Takes one frame's token; false when there is none left. */
  take(now = performance.now()): boolean {
    this.tokens = Math.min(this.rate.burst, this.tokens + ((now - this.last) / 1000) * this.rate.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

function frameId(value: unknown): RequestId | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.length > 0 && value.length <= 64) return value;
  return null;
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}

/** Reads every frame of `conn` with `service` until the socket closes; `rate`: the path's own unless given. */
export function serve(conn: Conn, service: Service, log: FastifyBaseLogger, rate: FrameRate = HUB_FRAME_RATE[conn.path]): void {
  const fail = (id: RequestId | null, code: number, message: string) =>
    conn.send({ id, ok: false, code, message } satisfies HubReply);
  const bucket = new FrameBucket(rate);

  conn.ws.on('message', (data) => {
    // Frames that were on their way when the socket was closed go unread.
    if (!conn.open) return;
    if (!bucket.take()) {
      conn.close(HubClose.tooManyFrames, `Too many frames: at most ${rate.perSecond} a second (${rate.burst} at once)`, 'drop');
      setTimeout(() => conn.terminate('drop'), CLOSE_GRACE_MS).unref();
      return;
    }
    if (byteLength(data) > MAX_FRAME_BYTES) {
      conn.close(HubClose.frameTooLarge, `Frame too large: the limit is ${MAX_FRAME_BYTES} bytes`);
      return;
    }
    let frame: unknown;
    try {
      frame = JSON.parse(text(data));
    } catch {
      fail(null, HubCode.badRequest, 'Malformed frame: not JSON');
      return;
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
      fail(null, HubCode.badRequest, 'Malformed frame: expected a JSON object');
      return;
    }
    const { id: rawId, op: name } = frame as { id?: unknown; op?: unknown };
    const id = frameId(rawId);
    if (id === null) {
      fail(null, HubCode.badRequest, 'Malformed frame: `id` must be a number or a short string');
      return;
    }
    const operation = typeof name === 'string' && Object.hasOwn(service.ops, name) ? service.ops[name] : undefined;
    if (!operation) {
      fail(id, HubCode.notFound, `Unknown op ${JSON.stringify(typeof name === 'string' ? name.slice(0, 64) : name)}`);
      return;
    }
    const args = operation.schema.safeParse(frame);
    if (!args.success) {
      const issue = args.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'frame';
      fail(id, HubCode.badRequest, `Bad arguments for ${String(name)}: ${where}: ${issue?.message ?? 'invalid'}`);
      return;
    }
    const after: (() => void)[] = [];
    let result: unknown;
    try {
      result = operation.run(conn, args.data, { afterReply: (fn) => after.push(fn) });
    } catch (err) {
      if (err instanceof HubError) fail(id, err.code, err.message);
      else {
        log.error({ err, op: name, path: conn.path }, 'realtime op failed');
        fail(id, HubCode.internal, 'Server fault');
      }
      return;
    }
    conn.send({ id, ok: true, result: result ?? null } satisfies HubReply);
    for (const fn of after) fn();
  });
  conn.ws.on('pong', () => {
    conn.alive = true;
  });
  // A socket error is followed by 'close'; the listener only keeps it from being thrown.
  conn.ws.on('error', () => undefined);
}
