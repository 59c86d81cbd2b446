/**
 * `npm run server`: serves the reference backend on one origin.
 *
 * NODE_ENV=production starts it in production mode (server/app.ts: no dev shell, no
 * development seed, its own AES pair required); it then refuses to start with one line on
 * stderr naming what is missing or wrong, and exit code 1. Without NODE_ENV (or with
 * `development` or `test`) it is the development stand-in, as `npm start` and the tests use it.
 *
 * Env: PORT (8080), HOST (127.0.0.1), DB_PATH (data/app.db; created and seeded on first
 * run), DIST_DIR (dist), AES_KEY / AES_IV (16 bytes each; default the development pair, required
 * in production), TRUST_PROXY (unset: the client address is the socket's; `true`, or the proxies'
 * addresses, comma-separated: read from X-Forwarded-For), LOG_LEVEL (warn), SEED_HOSTS /
 * SEED_USERS (development seed counts; default 6 and 4),
 * CALL_BILLING_PERIOD_MS (60000), CALL_RING_TIMEOUT_MS (30000), CALL_OFFLINE_GRACE_MS (30000):
 * call timings, shorter for e2e runs; LIVE_HEARTBEAT_WINDOW_MS (30000): a live room whose host
 * has not beaten liveHeartBeatV2 for this long ends (the beat interval is a third of it, at most
 * 10 s), shorter for e2e runs. MEDIA_HOSTS (none): hosts besides this origin that stored picture
 * and video URLs may point at and the app may load them from, comma-separated (`cdn.example.com`,
 * `*.example.com`); API_HOSTS (none): hosts besides this origin the app may call (a separate API,
 * the translator); CLOUD_SDKS=1: the app may reach the NetEase and Agora clouds (an app built
 * with VITE_REALTIME=production).
 */
import { createServer, ProductionConfigError } from './app';

const production = process.env.NODE_ENV === 'production';

const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${process.env.PORT}.`);

/** A positive integer from the environment, or undefined when unset. */
function msFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive number of ms, got ${raw}.`);
  return value;
}

/** A comma-separated list of host names from the environment (empty when unset). */
function hostsFromEnv(name: string): string[] {
  return (process.env[name] ?? '').split(',').map((h) => h.trim()).filter(Boolean);
}

/** TRUST_PROXY: unset or empty trusts nobody; `true` any proxy; anything else is the proxies' addresses. */
function trustProxyFromEnv(): boolean | string {
  const raw = process.env.TRUST_PROXY?.trim() ?? '';
  if (raw === '' || raw === 'false') return false;
  return raw === 'true' ? true : raw;
}

const app = await createServer({
  mode: production ? 'production' : 'development',
  trustProxy: trustProxyFromEnv(),
  dbPath: process.env.DB_PATH ?? 'data/app.db',
  mediaHosts: hostsFromEnv('MEDIA_HOSTS'),
  apiHosts: hostsFromEnv('API_HOSTS'),
  cloudSdks: process.env.CLOUD_SDKS === '1',
  distDir: process.env.DIST_DIR ?? 'dist',
  logger: true,
  aesKey: process.env.AES_KEY,
  aesIv: process.env.AES_IV,
  seed: production && !process.env.SEED_HOSTS && !process.env.SEED_USERS ? undefined : {
    ...(process.env.SEED_HOSTS ? { hosts: Number(process.env.SEED_HOSTS) } : {}),
    ...(process.env.SEED_USERS ? { users: Number(process.env.SEED_USERS) } : {}),
  },
  calls: {
    billingPeriodMs: msFromEnv('CALL_BILLING_PERIOD_MS'),
    ringTimeoutMs: msFromEnv('CALL_RING_TIMEOUT_MS'),
    offlineGraceMs: msFromEnv('CALL_OFFLINE_GRACE_MS'),
  },
  live: {
    heartbeatWindowMs: msFromEnv('LIVE_HEARTBEAT_WINDOW_MS'),
  },
}).catch((err: unknown) => {
  // A refused production start is said in its one line, not as a stack trace.
  if (!(err instanceof ProductionConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
});

await app.listen({ port, host: process.env.HOST ?? '127.0.0.1' });
const address = app.server.address();
const actualPort = typeof address === 'object' && address ? address.port : port;
if (!production) console.log(`Dev shell: http://localhost:${actualPort}/shell`);
console.log(`App: http://localhost:${actualPort}/`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    // Stops accepting connections, lets requests in flight finish, then closes the database (onClose).
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
