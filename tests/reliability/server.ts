/**
 * The server a probe attacks: `server/main.ts` of a checkout (this one unless the run names
 * another, to measure the code before a change), in a child process of its own, on a loopback
 * port, over a temporary database and a build folder holding only an index.html. A probe may kill it with SIGKILL
 * and start it again on the same database and port, read its memory (VmRSS of /proc) and read
 * its database (read-only: WAL lets it read while the server writes).
 *
 * Every child is killed when the run ends, however it ends (see `killAllServers`), and its
 * temporary folder is removed when it is stopped.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServerSpec {
  /** The checkout whose `server/main.ts` runs (its own node_modules). */
  checkout: string;
  /** Added to the server's environment (seed counts, timings, NODE_ENV). */
  env?: Record<string, string>;
}

export interface ProbeServer {
  readonly base: string;
  readonly port: number;
  readonly dbPath: string;
  /** The process id of the server now running (changes on a restart). */
  pid(): number;
  /** Resident memory of the server process, in bytes (0 once it is gone). */
  rssBytes(): number;
  /** Kills the process with SIGKILL, as a crash or a power cut would, and waits for it to be gone. */
  kill9(): Promise<void>;
  /** Stops it gracefully (SIGTERM; SIGKILL after 5 s), keeping its database. */
  halt(): Promise<void>;
  /** Starts it again on the same port and database (`env` added to its environment, an undefined value removed); resolves once it answers HTTP. */
  restart(env?: Record<string, string | undefined>): Promise<void>;
  /** Whether the process is running. */
  alive(): boolean;
  /** Opens the server's database read-only (closed by `stop`). */
  readDb(): Database.Database;
  /** Runs `sql` on a writable connection (test set-up such as balances; WAL and the busy time-out let both write). */
  writeDb(sql: string, ...params: unknown[]): void;
  /** The last lines the server printed (for a failure's report). */
  logTail(lines?: number): string;
  /** SIGTERM, then SIGKILL if it has not exited in 5 s; removes the temporary folder. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
const folders = new Set<string>();

/** Kills every server child still running; the runner calls it on every way out. */
export function killAllServers(): void {
  for (const child of running) {
    try {
      child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
  running.clear();
}

/** Removes the temporary folders of servers not stopped (a run that ended early); the runner calls it as it exits. */
export function removeServerFolders(): void {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  folders.clear();
}

/** A loopback port nobody listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** VmRSS of a process, in bytes; 0 when it is gone. */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

const START_TIMEOUT_MS = 60_000;

export async function startServer(spec: ServerSpec): Promise<ProbeServer> {
  const dir = mkdtempSync(join(tmpdir(), 'reliability-'));
  folders.add(dir);
  const distDir = join(dir, 'dist');
  mkdirSync(distDir);
  // A page to serve, so that app routes answer 200 rather than the missing build's 503.
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><html><head><title>App</title></head><body><div id="root"></div></body></html>');
  const dbPath = join(dir, 'app.db');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log: WriteStream = createWriteStream(join(dir, 'server.log'));
  const logLines: string[] = [];
  const readers: Database.Database[] = [];
  let child: ChildProcess | null = null;

  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  // The probe decides the mode; a NODE_ENV of the shell running the probes is not the server's.
  delete env.NODE_ENV;
  Object.assign(env, {
    PORT: String(port), HOST: '127.0.0.1', DB_PATH: dbPath, DIST_DIR: distDir, LOG_LEVEL: 'error', ...spec.env,
  });

  function keep(chunk: Buffer): void {
    log.write(chunk);
    logLines.push(...chunk.toString('utf8').split('\n').filter((l) => l.trim() !== ''));
    if (logLines.length > 200) logLines.splice(0, logLines.length - 200);
  }

  async function launch(): Promise<void> {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: spec.checkout, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    running.add(proc);
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    proc.once('exit', () => running.delete(proc));
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        // The error's own line says more than the stack's last lines.
        const said = logLines.find((l) => /^\w*Error\b|^Refusing/.test(l.trim())) ?? logLines.slice(-3).join(' | ');
        throw new Error(`The server exited at start (${proc.exitCode ?? proc.signalCode}): ${said.trim()}`);
      }
      try {
        // Any HTTP answer means it listens (the empty build folder answers app routes with 503).
        await fetch(`${base}/`, { signal: AbortSignal.timeout(2000) });
        return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`The server on port ${port} did not start within ${START_TIMEOUT_MS / 1000} s.`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function exitOf(proc: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(signal);
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref());
    if ((await Promise.race([exited, timer])) === 'late') {
      proc.kill('SIGKILL');
      await exited;
    }
  }

  async function cleanUp(): Promise<void> {
    for (const db of readers.splice(0)) db.close();
    await new Promise<void>((resolve) => log.end(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
    folders.delete(dir);
  }

  try {
    await launch();
  } catch (err) {
    if (child) await exitOf(child, 'SIGKILL', 5_000);
    await cleanUp();
    throw err;
  }

  return {
    base,
    port,
    dbPath,
    pid: () => child?.pid ?? 0,
    rssBytes: () => (child?.pid && child.exitCode === null ? rssOf(child.pid) : 0),
    alive: () => child !== null && child.exitCode === null && child.signalCode === null,
    async kill9() {
      if (child) await exitOf(child, 'SIGKILL', 10_000);
    },
    async halt() {
      if (child) await exitOf(child, 'SIGTERM', 5_000);
    },
    async restart(more = {}) {
      for (const [key, value] of Object.entries(more)) {
        if (value === undefined) delete env[key];
        else env[key] = value;
      }
      await launch();
    },
    readDb() {
      const db = new Database(dbPath, { readonly: true, fileMustExist: true });
      db.pragma('busy_timeout = 5000');
      readers.push(db);
      return db;
    },
    writeDb(sql, ...params) {
      const db = new Database(dbPath, { fileMustExist: true });
      try {
        db.pragma('busy_timeout = 5000');
        db.prepare(sql).run(...params);
      } finally {
        db.close();
      }
    },
    logTail: (lines = 5) => logLines.slice(-lines).join(' | '),
    async stop() {
      if (child) await exitOf(child, 'SIGTERM', 5_000);
      await cleanUp();
    },
  };
}
