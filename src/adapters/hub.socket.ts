/**
 * One socket to the reference server's WebSocket hub, for the local adapters
 * (im / chatroom / signalling / presence .local.ts): requests with an id and exactly one
 * reply each, pushes, and a drop report. It never reconnects: a dropped link rejects every
 * request under way with `linkLost` and calls `onDrop` once; what happens next is the
 * adapter's (and in the end the machine's) decision. Frame protocol:
 * src/api/contract/realtime.ts.
 */
import { HubCode, MAX_FRAME_BYTES, type HubReply } from '../api/contract/realtime';

/**
 * The part of a WebSocket the hub socket uses: the browser's `WebSocket` and the `ws`
 * package's both fit. Handlers take `never` so that either implementation's own event
 * types are accepted.
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: never) => void) | null;
  onmessage: ((event: never) => void) | null;
  onclose: ((event: never) => void) | null;
  onerror: ((event: never) => void) | null;
}
export type WebSocketImpl = new (url: string) => WebSocketLike;

/** A refusal from the hub, or a local failure of the link, with its code (HubCode). */
export class HubError extends Error {
  override name = 'HubError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const OPEN = 1;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 10_000;

/** The ws:// or wss:// URL of a hub path on the page's origin (or on `base`). */
export function hubUrl(path: string, base: string = globalThis.location?.href ?? 'http://localhost/'): string {
  const url = new URL(path, base);
  if (url.protocol === 'https:') url.protocol = 'wss:';
  else if (url.protocol === 'http:') url.protocol = 'ws:';
  return url.toString();
}

export function defaultWebSocket(): WebSocketImpl {
  const impl = (globalThis as { WebSocket?: WebSocketImpl }).WebSocket;
  if (!impl) throw new Error('No WebSocket implementation: pass WebSocketImpl (e.g. the ws package in Node).');
  return impl;
}

export interface HubSocketOptions {
  url: string;
  WebSocketImpl?: WebSocketImpl;
  onPush(push: { type?: unknown } & Record<string, unknown>): void;
  /** The open link closed without `close()` from this side (network fault, kick, server stop). Called once. */
  onDrop(info: { code: number; reason: string }): void;
  connectTimeoutMs?: number;
}

interface Waiting {
  resolve(value: unknown): void;
  reject(error: HubError): void;
  timer: ReturnType<typeof setTimeout>;
}

export class HubSocket {
  /** Settles when the socket is open; rejects with `linkLost` when it cannot open. */
  readonly ready: Promise<void>;
  private readonly ws: WebSocketLike;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private done = false;
  private opened = false;

  constructor(private readonly options: HubSocketOptions) {
    const Impl = options.WebSocketImpl ?? defaultWebSocket();
    this.ws = new Impl(options.url);
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new HubError(HubCode.linkLost, 'The realtime hub did not answer in time'));
        this.close();
      }, options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
      this.ws.onopen = () => {
        clearTimeout(timer);
        this.opened = true;
        resolve();
      };
      this.ws.onerror = () => undefined;
      this.ws.onclose = (event: { code: number; reason: string }) => {
        clearTimeout(timer);
        reject(new HubError(HubCode.linkLost, 'Cannot reach the realtime hub'));
        this.ended(event.code, event.reason);
      };
    });
    // A caller that never awaits `ready` must not cause an unhandled rejection.
    this.ready.catch(() => undefined);
    this.ws.onmessage = (event: { data: unknown }) => this.read(event.data);
  }

  get isOpen(): boolean {
    return !this.done && this.ws.readyState === OPEN;
  }

  /** Sends `{ id, op, ...args }` and resolves with the reply's result; rejects with HubError. */
  request<T>(op: string, args: object = {}, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<T> {
    if (!this.isOpen) return Promise.reject(new HubError(HubCode.linkLost, 'The realtime link is down'));
    const id = this.nextId++;
    const frame = JSON.stringify({ ...args, id, op });
    // Counted in UTF-16 units, which is at most the UTF-8 size for ASCII and a fair guard otherwise.
    if (frame.length > MAX_FRAME_BYTES || new TextEncoder().encode(frame).length > MAX_FRAME_BYTES) {
      return Promise.reject(new HubError(HubCode.badRequest, `Too large to send: the limit is ${MAX_FRAME_BYTES} bytes`));
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new HubError(HubCode.linkLost, `No answer to ${op} in time`));
      }, timeoutMs);
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.ws.send(frame);
    });
  }

  /** Closes from this side: requests under way reject, `onDrop` is not called. */
  close(): void {
    if (this.done) return;
    this.done = true;
    this.failAll('The realtime link was closed');
    try {
      this.ws.close(1000, 'bye');
    } catch {
      // Closing a socket that never opened throws in some implementations; it is closed either way.
    }
  }

  private read(data: unknown): void {
    if (this.done || typeof data !== 'string') return;
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null) return;
    const push = (frame as { push?: unknown }).push;
    if (typeof push === 'object' && push !== null) {
      this.options.onPush(push as { type?: unknown } & Record<string, unknown>);
      return;
    }
    const reply = frame as HubReply;
    if (typeof reply.id !== 'number') return;
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    clearTimeout(waiting.timer);
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(new HubError(typeof reply.code === 'number' ? reply.code : HubCode.internal, String(reply.message)));
  }

  private ended(code: number, reason: string): void {
    if (this.done) return;
    this.done = true;
    this.failAll('The realtime link dropped');
    if (this.opened) this.options.onDrop({ code, reason });
  }

  private failAll(message: string): void {
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(new HubError(HubCode.linkLost, message));
      this.waiting.delete(id);
    }
  }
}
