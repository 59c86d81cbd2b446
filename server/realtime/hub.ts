/**
 * The reference server's WebSocket hub (ARCHITECTURE "The reference server"): the local
 * IM, chat rooms, call signalling, presence and the WebRTC relay, each on its own path of the server's
 * origin (`RealtimePath`), with the frame protocol of src/api/contract/realtime.ts.
 *
 * It takes the HTTP server's `upgrade` events (`ws` in noServer mode); other paths are
 * answered 404. The hub pings every socket every `heartbeatMs` and cuts one that did not
 * answer the previous ping, so a vanished client's presence runs out and its IM login frees.
 * No origin check is needed: no path trusts cookies, every one authenticates with a token.
 *
 * Every socket that authenticates records the app session it did so under (`Conn.session`):
 * when a session ends (logout, the per-user cap), `closeSession` closes its sockets on every
 * path (4401), and the heartbeat closes those of a session that expired.
 *
 * Test hooks: `dropConnections(account | null)` cuts sockets without a closing handshake,
 * as a network reset would; `close()` closes every socket (1001) and stops the timers.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { HubClose, RealtimePath } from '../../src/api/contract/realtime';
import type { AuthSession } from '../auth/sessions';
import type { Db } from '../db/database';
import { createImAccounts, type ImAccounts } from './accounts';
import { createBlocks, type Blocks } from './blocks';
import { createChannelLookup } from './channels';
import { createChatroomService, type ChatroomService } from './chatroom';
import { createImService, type ImService } from './im';
import { createImStore } from './im.store';
import { createPresenceService, createPresenceStore, type PresenceService } from './presence';
import { createRtcService } from './rtc';
import { createSignalService, type SignalService } from './signal';
import { createAgoraTokens, type AgoraTokens } from './tokens';
import { Conn, serve, type FrameRate, type Service } from './wire';

declare module 'fastify' {
  interface FastifyInstance {
    /** The WebSocket hub (server/realtime/hub.ts). */
    realtime: RealtimeHub;
  }
}

export interface RealtimeOptions {
  /** How long a user whose presence socket dropped (without saying offline) stays as they were; default 15 s. */
  presenceGraceMs?: number;
  /** Interval of the hub's WebSocket pings; default 20 s. */
  heartbeatMs?: number;
  /** Members a chat room holds besides its owner; default CHATROOM_AUDIENCE_LIMIT (tests lower it). */
  chatroomAudienceLimit?: number;
  /** Frame rates of paths other than HUB_FRAME_RATE's (a stress test raises them past the app's pace). */
  frameRate?: Partial<Record<RealtimePath, FrameRate>>;
}

export interface RealtimeDeps {
  db: Db;
  /** The live session of a login token (presence; Agora tokens die with theirs). */
  findSession(token: string): AuthSession | undefined;
  /** The live session of an IM token (the IM and chat-room logins). */
  findImSession(imToken: string): AuthSession | undefined;
  log: FastifyBaseLogger;
}

export interface RealtimeHub {
  im: ImService;
  chatrooms: ChatroomService;
  signal: SignalService;
  presence: PresenceService;
  blocks: Blocks;
  tokens: AgoraTokens;
  accounts: ImAccounts;
  /** Starts taking upgrades on `server`. */
  attach(server: Server): void;
  /** Cuts every socket of the account (yxAccid) on every path, or every socket when null, as a network reset would; returns how many. */
  dropConnections(account: string | null): number;
  /** Closes every socket authenticated under the app session (login token) on every path (4401); returns how many. */
  closeSession(token: string): number;
  /** Open sockets per path (tests and the bench read it). */
  connectionCount(): Record<RealtimePath, number>;
  /** Closes every socket (1001) and stops; upgrades are refused from then on. */
  close(): Promise<void>;
}

/** The ws library's own ceiling; frames between MAX_FRAME_BYTES and this are closed by the hub with a reason. */
const WS_MAX_PAYLOAD = 1024 * 1024;
const CLOSE_WAIT_MS = 500;

export function createRealtimeHub({ db, findSession, findImSession, log }: RealtimeDeps, options: RealtimeOptions = {}): RealtimeHub {
  const accounts = createImAccounts(db, findImSession);
  const blocks = createBlocks(db);
  const tokens = createAgoraTokens(db, findSession);
  const im = createImService({ store: createImStore(db), accounts, blocks });
  const chatrooms = createChatroomService({ accounts, audienceLimit: options.chatroomAudienceLimit });
  const channels = createChannelLookup(db);
  const signal = createSignalService({ tokens, channels });
  const accidOf = db.prepare<[number], string>('SELECT yx_accid FROM users WHERE id = ?').pluck();
  const presence = createPresenceService({
    store: createPresenceStore(db),
    findSession,
    accidOf: (userId) => accidOf.get(userId),
    graceMs: options.presenceGraceMs ?? 15_000,
  });

  const services = new Map<string, Service>([
    [RealtimePath.im, im],
    [RealtimePath.chatroom, chatrooms],
    [RealtimePath.signal, signal],
    [RealtimePath.presence, presence],
    [RealtimePath.rtc, createRtcService({ tokens, channels })],
  ]);
  const conns = new Set<Conn>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD, perMessageDeflate: false });
  let closing = false;
  let server: Server | null = null;

  const closeAsEnded = (conn: Conn) => conn.close(HubClose.unauthenticated, 'The session has ended');

  const heartbeat = setInterval(() => {
    for (const conn of conns) {
      if (!conn.alive) {
        conn.terminate('drop');
        continue;
      }
      // Logout and the cap close their sockets at once; an expiry is noticed here.
      if (conn.session !== null && !findSession(conn.session)) {
        closeAsEnded(conn);
        continue;
      }
      conn.alive = false;
      conn.ws.ping();
    }
  }, options.heartbeatMs ?? 20_000);
  heartbeat.unref();

  function refuse(socket: Duplex, status: string): void {
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }

  function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://hub.invalid');
    const service = services.get(url.pathname);
    if (!service) return refuse(socket, '404 Not Found');
    if (closing) return refuse(socket, '503 Service Unavailable');
    socket.on('error', () => undefined);
    wss.handleUpgrade(request, socket, head, (ws) => {
      const conn = new Conn(url.pathname as RealtimePath, ws);
      conns.add(conn);
      ws.once('close', () => {
        conns.delete(conn);
        try {
          service.closed?.(conn);
        } catch (err) {
          log.error({ err, path: conn.path }, 'realtime close handler failed');
        }
      });
      serve(conn, service, log, options.frameRate?.[conn.path]);
      service.opened?.(conn, url);
    });
  }

  return {
    im,
    chatrooms,
    signal,
    presence,
    blocks,
    tokens,
    accounts,

    attach(target) {
      server = target;
      target.on('upgrade', onUpgrade);
    },

    dropConnections(account) {
      let cut = 0;
      for (const conn of conns) {
        if (!conn.open || (account !== null && conn.account !== account)) continue;
        conn.terminate('drop');
        cut += 1;
      }
      return cut;
    },

    closeSession(token) {
      let closed = 0;
      for (const conn of conns) {
        if (conn.session !== token || !conn.open) continue;
        closeAsEnded(conn);
        closed += 1;
      }
      return closed;
    },

    connectionCount() {
      const counts = Object.fromEntries(Object.values(RealtimePath).map((p) => [p, 0])) as Record<RealtimePath, number>;
      for (const conn of conns) counts[conn.path] += 1;
      return counts;
    },

    async close() {
      if (closing) return;
      closing = true;
      clearInterval(heartbeat);
      server?.off('upgrade', onUpgrade);
      im.stop();
      const allClosed = () => Promise.all([...conns].map((c) => new Promise<void>((resolve) => {
        if (c.ws.readyState === c.ws.CLOSED) resolve();
        else c.ws.once('close', () => resolve());
      })));
      const closed = allClosed();
      for (const conn of conns) conn.close(HubClose.goingAway, 'Server stopping');
      const timer = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref());
      await Promise.race([closed, timer]);
      const cut = allClosed();
      for (const conn of conns) conn.terminate('server');
      await cut;
      presence.stop();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

