/**
 * The IM port over the reference server's hub (`/realtime/im`; protocol in
 * src/api/contract/realtime.ts): the local stand-in for NetEase IM (im.nim.ts).
 *
 * It does not reconnect by itself. When the link drops it emits `disconnected` (code
 * -10002) and requests under way reject with ImError(-10002), so a send can be retried
 * with the same idClient (the hub stores it once). The machine then calls `login` again:
 * the adapter logs in with the last sequence number it has seen, the hub replays
 * everything after it, and the adapter drops anything it has already seen (by sequence
 * number and by idServer). It confirms what it has seen (`ack`, shortly after a burst, and
 * on logout) so that a later client of the account starts after it.
 *
 * Errors are ImError with the hub's code (the §8 codes; see HubCode); a login that gets no
 * answer in time is -11024; a hub that cannot be reached, or whose link drops before it
 * answers the login, is `ImCode.unreachable`; a request on a dropped link -10002.
 */
import { ImCode, ImError } from '../../machines/ports/im.port';
import type { ImConversation, ImEvent, ImMessage, ImPort, SendOptions } from '../../machines/ports/im.port';
import { HubClose, type ImLoginResult, type ImPush } from '../api/contract/realtime';
import { HubError, HubSocket, type WebSocketImpl } from './hub.socket';

export interface LocalImOptions {
  /** ws:// URL of the hub's IM path (`hubUrl(RealtimePath.im)` in the browser). */
  url: string;
  /** Default `globalThis.WebSocket`; Node tests pass the `ws` package's WebSocket. */
  WebSocketImpl?: WebSocketImpl;
  /** Default 10 s; then the login fails with -11024. */
  loginTimeoutMs?: number;
  /** Default 10 s. */
  requestTimeoutMs?: number;
  /** Default 5 s. */
  pingTimeoutMs?: number;
  /** How long after the last message the adapter confirms what it has seen; default 200 ms. */
  ackDelayMs?: number;
}

/** How many server ids are remembered to drop a message seen before. */
const SEEN_LIMIT = 5000;

const toImError = (error: unknown, timeoutCode: number = ImCode.linkLost): ImError => {
  if (error instanceof ImError) return error;
  if (error instanceof HubError) {
    const timedOut = error.code === ImCode.linkLost && /in time/.test(error.message);
    return new ImError(timedOut ? timeoutCode : error.code, error.message);
  }
  return new ImError(ImCode.linkLost, error instanceof Error ? error.message : String(error));
};

const newIdClient = (): string => globalThis.crypto.randomUUID();

export function createLocalImPort(options: LocalImOptions): ImPort {
  const listeners = new Set<(event: ImEvent) => void>();
  let socket: HubSocket | null = null;
  /** The account of the current login; null when logged out, kicked or dropped. */
  let loggedIn: string | null = null;
  /** The account whose sequence this adapter follows (kept across logouts and drops). */
  let following: string | null = null;
  let lastSeq: number | undefined;
  let ackedSeq = 0;
  let ackTimer: ReturnType<typeof setTimeout> | null = null;
  const seen = new Set<string>();

  const emit = (event: ImEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };

  function remember(idServer: string): boolean {
    if (seen.has(idServer)) return false;
    seen.add(idServer);
    if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value as string);
    return true;
  }

  function scheduleAck(sock: HubSocket): void {
    if (ackTimer) return;
    ackTimer = setTimeout(() => {
      ackTimer = null;
      if (sock !== socket || lastSeq === undefined || lastSeq <= ackedSeq) return;
      const seq = lastSeq;
      sock.request('ack', { seq }).then(() => { ackedSeq = Math.max(ackedSeq, seq); }, () => undefined);
    }, options.ackDelayMs ?? 200);
  }

  /** Whether an item with this sequence number is new; moves the sequence on. */
  function advance(seq: number): boolean {
    if (lastSeq !== undefined && seq <= lastSeq) return false;
    lastSeq = seq;
    return true;
  }

  function onPush(sock: HubSocket, push: ImPush): void {
    if (sock !== socket) return;
    switch (push.type) {
      case 'message':
        if (advance(push.seq) && remember(push.message.idServer)) emit({ type: 'message', message: push.message });
        scheduleAck(sock);
        return;
      case 'notification':
        if (advance(push.seq) && remember(push.notification.idServer)) {
          emit({ type: 'notification', notification: push.notification });
        }
        scheduleAck(sock);
        return;
      case 'conversation':
        emit({ type: 'conversation', conversation: push.conversation });
        return;
      case 'unread':
        emit({ type: 'unread', total: push.total });
        return;
      case 'kicked':
        drop(sock);
        emit({ type: 'kicked' });
        return;
    }
  }

  function onDrop(sock: HubSocket, code: number): void {
    if (sock !== socket) return;
    const wasLoggedIn = loggedIn !== null;
    drop(sock);
    if (code === HubClose.kicked) emit({ type: 'kicked' });
    else if (wasLoggedIn) emit({ type: 'disconnected', code: ImCode.linkLost });
  }

  /** Forgets the socket quietly (no event). */
  function drop(sock: HubSocket | null): void {
    if (ackTimer) clearTimeout(ackTimer);
    ackTimer = null;
    if (sock && sock === socket) socket = null;
    loggedIn = null;
    sock?.close();
  }

  function live(): HubSocket {
    if (!socket || !loggedIn) throw new ImError(ImCode.linkLost, 'IM is not logged in');
    return socket;
  }

  async function call<T>(op: string, args: object, timeoutMs = options.requestTimeoutMs): Promise<T> {
    const sock = live();
    try {
      return await sock.request<T>(op, args, timeoutMs);
    } catch (error) {
      throw toImError(error);
    }
  }

  function send(to: string, body: { type: 'text'; text: string } | { type: 'custom'; attach: Record<string, unknown> }, opts: SendOptions = {}) {
    const args = { to, idClient: opts.idClient ?? newIdClient(), ...body, ...(opts.ext !== undefined ? { ext: opts.ext } : {}) };
    return call<ImMessage>('send', args);
  }

  return {
    async login(account, token) {
      drop(socket);
      if (account !== following) {
        following = account;
        lastSeq = undefined;
        ackedSeq = 0;
        seen.clear();
      }
      const sock: HubSocket = new HubSocket({
        url: options.url,
        WebSocketImpl: options.WebSocketImpl,
        onPush: (push) => onPush(sock, push as ImPush),
        onDrop: ({ code }) => onDrop(sock, code),
      });
      socket = sock;
      try {
        await sock.ready;
      } catch {
        if (socket === sock) drop(sock);
        throw new ImError(ImCode.unreachable, 'Cannot reach the IM service');
      }
      try {
        await sock.request<ImLoginResult>(
          'login',
          { account, token, ...(lastSeq !== undefined ? { lastSeq } : {}) },
          options.loginTimeoutMs ?? 10_000,
        );
      } catch (error) {
        // The link dropped before the hub answered: nobody refused, the service is out of reach.
        const unreachable = error instanceof HubError && error.code === ImCode.linkLost && !sock.isOpen;
        if (socket === sock) drop(sock);
        if (unreachable) throw new ImError(ImCode.unreachable, 'The IM service went away during login');
        throw toImError(error, ImCode.loginTimeout);
      }
      // A drop or a kick may have come in while the answer was read.
      if (socket !== sock) throw new ImError(ImCode.linkLost, 'The IM link dropped during login');
      loggedIn = account;
    },

    async logout() {
      const sock = socket;
      if (sock && loggedIn) {
        await sock.request('logout', lastSeq !== undefined ? { lastSeq } : {}, 2000).catch(() => undefined);
        if (lastSeq !== undefined) ackedSeq = Math.max(ackedSeq, lastSeq);
      }
      drop(sock);
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    sendText: (to, text, opts) => send(to, { type: 'text', text }, opts),
    sendCustom: (to, attach, opts) => send(to, { type: 'custom', attach }, opts),

    async sendNotification(to, content) {
      await call('notify', { to, content });
    },

    conversations: (limit) => call<ImConversation[]>('conversations', { limit }),

    async markRead(conversationId) {
      await call('markRead', { peer: conversationId });
    },

    history: (peer, { limit, before }) =>
      call<ImMessage[]>('history', { peer, limit, ...(before !== undefined ? { before } : {}) }),

    async clearHistory(peer) {
      await call('clearHistory', { peer });
    },

    async ping() {
      await call('ping', {}, options.pingTimeoutMs ?? 5000);
    },
  };
}
