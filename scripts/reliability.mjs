/**
 * `npm run reliability`: the project's own attack probes (tests/reliability/run.ts), one line
 * of figures each: money under concurrent sends with replays, kill -9 mid-load with client
 * retries, a fuzz of every endpoint, the authorization matrix, a login flood, upload and body
 * limits, a hub flood with slow members. Each probe starts its own server on a loopback port
 * over a temporary database and stops it at the end. Bounded in count and time; `--light`
 * is the shorter run inside `npm test`. Other options: see run.ts (`--only=`, `--checkout=`,
 * `--json=`, `--verbose`, `--list`).
 */
import { spawn } from 'node:child_process';

const child = spawn(process.execPath, ['--import', 'tsx', 'tests/reliability/run.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
