/**
 * A reference server of its own, in a child process, for end-to-end tests that stop and
 * start it (a server restart under a running app). It serves the app build of the main
 * test server (`dist`, built by the Playwright webServer step) over its own database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

export interface ServerProcess {
  readonly baseURL: string;
  /** Starts the server (again, on the same port and database) and waits until it answers. */
  start(): Promise<void>;
  /** Kills the process without letting it close anything, as a crash or power cut would. */
  kill(): Promise<void>;
}

/**
 * `env` is added to the server's environment (seed counts, call timings). The app build it
 * serves is `E2E_DIST_DIR` when set (a private build), else `dist`.
 */
export function serverProcess(port: number, name: string, env: Record<string, string> = {}): ServerProcess {
  const baseURL = `http://localhost:${port}`;
  const dir = `.tmp/e2e-${port}-${name}`;
  rmSync(dir, { recursive: true, force: true });
  let child: ChildProcess | null = null;

  return {
    baseURL,
    async start() {
      const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: {
          ...process.env, PORT: String(port), DB_PATH: `${dir}/app.db`, DIST_DIR: process.env.E2E_DIST_DIR ?? 'dist',
          SEED_HOSTS: '2', SEED_USERS: '2', ...env,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child = proc;
      // Generous: on two busy cores a server can take a while to start beside other suites' browsers.
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (proc.exitCode !== null) throw new Error(`The server on port ${port} exited with ${proc.exitCode}`);
        try {
          if ((await fetch(`${baseURL}/shell`)).ok) return;
        } catch {
          // Not listening yet.
        }
        if (Date.now() > deadline) throw new Error(`The server on port ${port} did not start`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async kill() {
      const proc = child;
      child = null;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}
