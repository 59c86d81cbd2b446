/**
 * The reference server on one origin: the encrypted API (SPEC §7), the WebSocket hub
 * (server/realtime, on the HTTP server's upgrades), same-origin avatars, the dev shell and
 * the built app. `createServer` opens, migrates and seeds the database and returns the
 * Fastify instance without listening (the hub is `app.realtime`); closing the instance
 * closes the hub's sockets, then the database. A request that arrives while it closes is
 * answered at once: an API request with the API's own envelope (`serverRestarting`), anything
 * else with a plain 503.
 *
 * Two modes:
 * - development (the default; `npm start`, the tests): the dev shell, the development seed
 *   (public passwords), and the development AES pair when none is given;
 * - production: no dev shell (its routes answer 404, so no passwordless session and no fault
 *   injection), only the reference data (server/db/seed.ts `seedReferenceData`), and it refuses
 *   to start (ProductionConfigError, one line) without its own AES key and IV, with the
 *   development ones, or on a database that holds the development accounts.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createAesCodec } from '../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY, ResultCode, TEXT_SERVER_RESTARTING } from '../src/api/codes';
import { apiRoutes } from './api';
import { createCallEngine, type CallOptions } from './api/billing';
import { startCallTranslation } from './api/call-translation';
import { createFaults } from './api/faults';
import { createLiveEngine, type LiveOptions } from './api/live.rooms';
import { translatorStandIn } from './api/translator';
import { encryptedApi } from './api/transport';
import { mediaUploads } from './api/upload';
import type { UploadQuotaOptions } from './api/upload.quota';
import { createDoorLimits, type DoorLimitOptions } from './auth/limits';
import { createSessions, type SessionOptions } from './auth/sessions';
import { openDatabase, type Db } from './db/database';
import { FIRST_RUNTIME_USER_ID } from './db/migrations';
import { CUSTOMER_SERVICE, seed, seedReferenceData, type SeedOptions } from './db/seed';
import { createRealtimeHub, type RealtimeOptions } from './realtime/hub';
import { devShell } from './shell/routes';
import { createUsers } from './users/users';
import { registerAvatars } from './web/avatars';
import { registerBanners } from './web/banners';
import { registerGiftPictures } from './web/gifts';
import { registerPayIcons } from './web/pay-icons';
import { USDT_SWEEP_MS, createOrders } from './api/wallet.orders';
import { sandboxPayments } from './sandbox/payments';
import { createWithdrawals, type WithdrawalOptions } from './api/withdraw';
import { registerSecurityHeaders } from './web/security';
import { registerStaticApp } from './web/static';

export type ServerMode = 'production' | 'development';

export interface ServerOptions {
  /** 'development' (default): dev shell, development seed and AES pair; 'production': none of them (see above). */
  mode?: ServerMode;
  /** SQLite file (created with its folder), or ':memory:'. */
  dbPath: string;
  /** The Vite build to serve; default `dist`. */
  distDir?: string;
  /** Log warnings and errors (level from LOG_LEVEL, default 'warn'). */
  logger?: boolean;
  /** Transport key and IV, 16 bytes each; default the shared development pair (production: required, and not that pair). */
  aesKey?: string;
  aesIv?: string;
  /** Development-only routes under /shell (see shell/routes.ts); default true, never in production. */
  devShell?: boolean;
  /** Seed counts, or false to leave the database unseeded; default the standard seed (production: reference data only). */
  seed?: SeedOptions | false;
  /** Session lifetime and the cap per user (server/auth/sessions.ts). */
  sessions?: SessionOptions;
  /** Failed sign-ins, sign-ups and visitor entries allowed per account and address (server/auth/limits.ts). */
  limits?: DoorLimitOptions;
  /**
   * Fastify's `trustProxy`: whether the client address may be read from X-Forwarded-For (true,
   * or the proxies' addresses). Default false: the socket's peer, which a client cannot forge.
   */
  trustProxy?: boolean | string;
  /** WebSocket hub timings (presence grace, heartbeat). */
  realtime?: RealtimeOptions;
  /** Where uploaded pictures and videos are kept; default `media/` beside the database (a temporary folder for ':memory:'). */
  mediaDir?: string;
  /** Per-person upload limits: in progress at once, files and bytes a day (server/api/upload.quota.ts); default the contract's. */
  uploads?: UploadQuotaOptions;
  /**
   * Hosts besides this origin that stored picture and video URLs may point at, and that the app
   * may load them from (`MEDIA_HOSTS`; `cdn.example.com` or `*.example.com`); default none.
   */
  mediaHosts?: readonly string[];
  /** Hosts besides this origin the app may call (`API_HOSTS`: a separate API host, the translator); default none. */
  apiHosts?: readonly string[];
  /** Let the app reach the NetEase and Agora clouds (a build with `VITE_REALTIME=production`; `CLOUD_SDKS=1`); default false. */
  cloudSdks?: boolean;
  /** Call timings: billing period, ring time-out, offline grace (server/api/billing.ts). */
  calls?: CallOptions;
  /** Live-room timings: the heartbeat window (server/api/live.rooms.ts). */
  live?: LiveOptions;
  /** How often USDT orders past their deadline are ended 'expired' (server/api/wallet.orders.ts); default USDT_SWEEP_MS. */
  usdtSweepMs?: number;
  /** Money out's clock (server/api/withdraw.ts): tests move it past a password lock or onto another weekday. */
  withdrawals?: WithdrawalOptions;
}

/** A production start refused: the message is the one line to print (what is missing or wrong). */
export class ProductionConfigError extends Error {
  override name = 'ProductionConfigError';
}

const refuse = (reason: string) => new ProductionConfigError(`Refusing to start in production: ${reason}`);

/** The production checks that need no database: the dev shell and seed are not asked for, the AES pair is the deployment's own. */
function checkProductionOptions(opts: ServerOptions): void {
  if (opts.devShell === true) throw refuse('the dev shell is development only; leave devShell unset.');
  if (opts.seed) throw refuse('the development seed is development only; unset SEED_HOSTS and SEED_USERS.');
  for (const [name, value, dev] of [['AES_KEY', opts.aesKey, DEV_AES_KEY], ['AES_IV', opts.aesIv, DEV_AES_IV]] as const) {
    if (!value) throw refuse(`${name} is not set.`);
    if (value === dev) throw refuse(`${name} is the development value from src/api/codes.ts; set one of your own.`);
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes !== 16) throw refuse(`${name} must be exactly 16 bytes, not ${bytes}.`);
  }
}

/** A production database must not hold what the development seed made (accounts with a public password, a derivable IM token). */
function checkProductionDatabase(db: Db, dbPath: string): void {
  const seededUser = db.prepare('SELECT 1 FROM users WHERE id < ? LIMIT 1').pluck().get(FIRST_RUNTIME_USER_ID);
  const seededService = db.prepare('SELECT 1 FROM customer_service WHERE im_token = ? LIMIT 1').pluck().get(CUSTOMER_SERVICE.imToken);
  if (seededUser || seededService) {
    throw refuse(`the database ${dbPath} holds the development accounts; start on a new one (DB_PATH).`);
  }
}

export async function createServer(opts: ServerOptions): Promise<FastifyInstance> {
  const production = opts.mode === 'production';
  if (production) checkProductionOptions(opts);
  // Built first so that a bad key fails before anything is opened (SPEC §5).
  const codec = createAesCodec(opts.aesKey ?? DEV_AES_KEY, opts.aesIv ?? DEV_AES_IV);
  const db = openDatabase(opts.dbPath);
  let sweep: ReturnType<typeof setInterval> | undefined;
  try {
    if (production) {
      checkProductionDatabase(db, opts.dbPath);
      seedReferenceData(db);
    } else if (opts.seed !== false) seed(db, opts.seed);
    const users = createUsers(db);
    const sessions = createSessions(db, opts.sessions);

    const app = Fastify({
      logger: opts.logger ? { level: process.env.LOG_LEVEL ?? 'warn' } : false,
      trustProxy: opts.trustProxy ?? false,
      // Answered by the hook below instead, in the API's own envelope.
      return503OnClosing: false,
    });
    answerWhileStopping(app, codec);
    const hub = createRealtimeHub(
      { db, findSession: sessions.find, findImSession: sessions.findByImToken, log: app.log },
      opts.realtime,
    );
    // Logout and the cap on sessions close what the session opened on the hub.
    sessions.onEnded((token) => hub.closeSession(token));
    hub.attach(app.server);
    app.decorate('realtime', hub);
    // Sockets first: the HTTP server's close waits for every connection, upgraded ones included.
    app.addHook('preClose', () => hub.close());
    // Resumes or settles the calls left open by the last run (see src/api/contract/call.ts).
    const calls = createCallEngine({ db, realtime: hub, log: app.log }, opts.calls);
    // Who ended a call is whose end reached the server first: an end signal counts as it passes the hub.
    hub.signal.onSent((sent) => {
      try {
        calls.signalled(sent);
      } catch (err) {
        app.log.error({ err, channelId: sent.channelId }, 'a call signal could not be recorded');
      }
    });
    // No call timer runs once closing starts (the database closes after).
    app.decorate('calls', calls);
    app.addHook('preClose', async () => calls.stop());
    // A connected call's chat lines reach a reader of another language translated too (-1).
    const stopCallTranslation = startCallTranslation({ db, realtime: hub, calls, log: app.log });
    app.addHook('preClose', async () => stopCallTranslation());
    // Reopens the chat rooms of the rooms left live by the last run and sets their heartbeat deadlines.
    const live = createLiveEngine({ db, realtime: hub, log: app.log }, opts.live);
    app.decorate('live', live);
    app.addHook('preClose', async () => live.stop());
    // Recharge orders; a USDT order past its deadline ends 'expired' even when nobody asks, so its person hears 99.
    const orders = createOrders(db, { im: hub.im });
    sweep = setInterval(() => {
      try {
        orders.expireOverdue();
      } catch (err) {
        app.log.error({ err }, 'the overdue USDT orders could not be ended');
      }
    }, opts.usdtSweepMs ?? USDT_SWEEP_MS);
    sweep.unref();
    app.addHook('preClose', async () => clearInterval(sweep));
    app.addHook('onClose', async () => db.close());
    const deps = {
      users, sessions, limits: createDoorLimits(opts.limits), realtime: hub, db, faults: createFaults(), calls, live, orders,
      withdrawals: createWithdrawals(db, opts.withdrawals),
      // Where stored picture and video URLs may point besides this origin (src/api/contract/media.ts isAllowedMediaUrl).
      mediaHosts: opts.mediaHosts ?? [],
    };
    registerSecurityHeaders(app, { mediaHosts: opts.mediaHosts, apiHosts: opts.apiHosts, cloudSdks: opts.cloudSdks });
    // Outside the API (which has its own): client errors keep their status, anything else is a logged, generic 500.
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error(error);
      return reply.code(status).type('text/plain; charset=utf-8').send(`${STATUS_CODES[status] ?? 'Error'}\n`);
    });

    await app.register(encryptedApi, { codec, findSession: deps.sessions.find, routes: apiRoutes(deps) });
    await app.register(translatorStandIn, { db });
    let mediaDir = opts.mediaDir ?? join(dirname(opts.dbPath), 'media');
    if (opts.mediaDir === undefined && opts.dbPath === ':memory:') {
      // A database that vanishes on close keeps its uploads in a folder that does too.
      const temporary = (mediaDir = mkdtempSync(join(tmpdir(), 'anchor-media-')));
      app.addHook('onClose', async () => rmSync(temporary, { recursive: true, force: true }));
    }
    await app.register(mediaUploads, { codec, findSession: deps.sessions.find, dir: mediaDir, db, quota: opts.uploads });
    registerAvatars(app);
    registerBanners(app);
    registerGiftPictures(app);
    registerPayIcons(app);
    if (!production && opts.devShell !== false) await app.register(devShell, { ...deps, hub });
    // The payment providers' stand-in confirms orders: development only (anyone could credit themselves).
    if (!production) await app.register(sandboxPayments, { orders: deps.orders, db });
    await registerStaticApp(app, resolve(opts.distDir ?? 'dist'));
    return app;
  } catch (err) {
    clearInterval(sweep);
    db.close();
    throw err;
  }
}

/**
 * From the moment closing starts, every request is answered at once and its connection closed:
 * an API request (`/api/…`) with the API's encrypted envelope `serverRestarting` (the app shows
 * its sentence as any other code's, SPEC §8), anything else with a plain 503. Registered before
 * every route and hook, so it runs first on all of them.
 */
function answerWhileStopping(app: FastifyInstance, codec: ReturnType<typeof createAesCodec>): void {
  let stopping = false;
  const envelope = codec.encrypt(JSON.stringify({ code: ResultCode.serverRestarting, message: TEXT_SERVER_RESTARTING }));
  app.addHook('preClose', async () => {
    stopping = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!stopping) return;
    reply.header('connection', 'close').header('cache-control', 'no-store');
    if (request.url.startsWith('/api/')) {
      return reply.code(200).header('content-type', 'text/plain;charset=utf-8').send(envelope);
    }
    return reply.code(503).type('text/plain; charset=utf-8').send(`${TEXT_SERVER_RESTARTING}\n`);
  });
}
