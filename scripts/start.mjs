/**
 * `npm start`: builds the app, then starts the reference server, which creates and seeds
 * the embedded database on first run and serves the app, the API and the dev shell on one
 * origin. Prints the dev-shell URL. This is the development stand-in (public seeded
 * passwords, the dev shell); a deployment runs production mode instead (README, Production),
 * and NODE_ENV=production here starts that mode too, which refuses to start without its own
 * AES_KEY and AES_IV.
 */
import { spawn, spawnSync } from 'node:child_process';

const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn('npx', ['tsx', 'server/main.ts'], { stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
