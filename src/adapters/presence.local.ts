/**
 * The presence port over the reference server's hub (`/realtime/presence`, SPEC §4
 * Presence): `open` connects and authenticates with the app session token (the
 * `x-login-token` value, read through `token()` at each open), `send` resolves when the hub
 * acknowledged the code, `close` closes quietly. A link that drops (not closed by `close`)
 * emits `closed`; the presence machine reopens it (SPEC §9: every 5 s, up to 720 tries).
 */
import type { PresenceCode, PresenceEvent, PresencePort } from '../../machines/ports/presence.port';
import { HubCode } from '../api/contract/realtime';
import { HubError, HubSocket, type WebSocketImpl } from './hub.socket';

export interface LocalPresenceOptions {
  /** ws:// URL of the hub's presence path (`hubUrl(RealtimePath.presence)` in the browser). */
  url: string;
  /** The current session token; `open` fails without one. */
  token: () => string | null | undefined;
  /** Default `globalThis.WebSocket`; Node tests pass the `ws` package's WebSocket. */
  WebSocketImpl?: WebSocketImpl;
  /** Default 10 s (the machine bounds the wait itself: presence timeout 5 s). */
  requestTimeoutMs?: number;
}

export function createLocalPresencePort(options: LocalPresenceOptions): PresencePort {
  const listeners = new Set<(event: PresenceEvent) => void>();
  let socket: HubSocket | null = null;
  let ready = false;

  function drop(sock: HubSocket | null): void {
    if (sock && sock === socket) socket = null;
    ready = false;
    sock?.close();
  }

  return {
    async open() {
      drop(socket);
      const token = options.token();
      if (!token) throw new HubError(HubCode.tokenInvalid, 'No session: presence needs the login token');
      const sock: HubSocket = new HubSocket({
        url: options.url,
        WebSocketImpl: options.WebSocketImpl,
        onPush: () => undefined,
        onDrop: () => {
          if (sock !== socket) return;
          const was = ready;
          drop(sock);
          if (was) for (const listener of [...listeners]) listener({ type: 'closed' });
        },
      });
      socket = sock;
      try {
        await sock.ready;
        await sock.request('auth', { token }, options.requestTimeoutMs);
      } catch (error) {
        if (socket === sock) drop(sock);
        throw error;
      }
      if (socket !== sock) throw new HubError(HubCode.linkLost, 'The presence link dropped while opening');
      ready = true;
    },

    async send(code: PresenceCode) {
      if (!socket || !ready) throw new HubError(HubCode.linkLost, 'The presence socket is not open');
      await socket.request('status', { code }, options.requestTimeoutMs);
    },

    close() {
      drop(socket);
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
