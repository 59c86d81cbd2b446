/**
 * The call-signalling port over the reference server's hub (`/realtime/signal`): the local
 * stand-in for Agora RTM (signalling.rtm.ts). Login is the user's yxAccid with the rtm
 * token of /api/index/getAgoraRtmToken. It does not reconnect by itself: a dropped link,
 * or a login of the same account elsewhere, emits `disconnected`, and the owner logs in
 * again. Login errors are HubError with the hub's code; a send's are the port's SignalFailure
 * (the hub's 404, the peer is not connected, is `unavailable`).
 */
import { SignalFailure, TEXT_PEER_UNAVAILABLE } from '../../machines/ports/signalling.port';
import type { CallSignal, SignalEvent, SignallingPort } from '../../machines/ports/signalling.port';
import { HubCode, type SignalPush } from '../api/contract/realtime';
import { HubError, HubSocket, type WebSocketImpl } from './hub.socket';

export interface LocalSignallingOptions {
  /** ws:// URL of the hub's signalling path (`hubUrl(RealtimePath.signal)` in the browser). */
  url: string;
  /** Default `globalThis.WebSocket`; Node tests pass the `ws` package's WebSocket. */
  WebSocketImpl?: WebSocketImpl;
  /** Default 10 s. */
  requestTimeoutMs?: number;
}

/** A hub error as the port's failure: 404 the peer is not connected, a lost link or no answer, anything else refused. */
export function failureOf(error: unknown): SignalFailure {
  const code = error instanceof HubError ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (code === HubCode.notFound) return new SignalFailure('unavailable', TEXT_PEER_UNAVAILABLE, { cause: error });
  if (code === HubCode.linkLost || code === HubCode.loginTimeout || code === HubCode.serverBusy) {
    return new SignalFailure('disconnected', message, { cause: error });
  }
  return new SignalFailure('refused', message, { cause: error });
}

export function createLocalSignallingPort(options: LocalSignallingOptions): SignallingPort {
  const listeners = new Set<(event: SignalEvent) => void>();
  let socket: HubSocket | null = null;
  let loggedIn = false;

  const emit = (event: SignalEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };

  function drop(sock: HubSocket | null): void {
    if (sock && sock === socket) socket = null;
    loggedIn = false;
    sock?.close();
  }

  function lost(sock: HubSocket): void {
    if (sock !== socket) return;
    const was = loggedIn;
    drop(sock);
    if (was) emit({ type: 'disconnected' });
  }

  return {
    async login(account, token) {
      drop(socket);
      const sock: HubSocket = new HubSocket({
        url: options.url,
        WebSocketImpl: options.WebSocketImpl,
        onPush: (push) => {
          if (sock !== socket) return;
          const p = push as SignalPush;
          if (p.type === 'signal') emit({ type: 'signal', signal: p.signal });
          else if (p.type === 'kicked') lost(sock);
        },
        onDrop: () => lost(sock),
      });
      socket = sock;
      try {
        await sock.ready;
        await sock.request('login', { account, token }, options.requestTimeoutMs);
      } catch (error) {
        if (socket === sock) drop(sock);
        throw error;
      }
      if (socket !== sock) throw new HubError(HubCode.linkLost, 'The signalling link dropped during login');
      loggedIn = true;
      emit({ type: 'connected' });
    },

    async logout() {
      const sock = socket;
      if (sock && loggedIn) await sock.request('logout', {}, 2000).catch(() => undefined);
      drop(sock);
    },

    async send(to, signal) {
      if (!socket || !loggedIn) throw new SignalFailure('disconnected', 'Signalling is not logged in');
      try {
        return await socket.request<CallSignal>('send', { to, ...signal }, options.requestTimeoutMs);
      } catch (error) {
        throw failureOf(error);
      }
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
