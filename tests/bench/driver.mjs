/**
 * What the rendering bench drivers share (tests/bench/chat.bench.mjs, home.bench.mjs): the
 * production build of a bench page, a static server for it, a fresh page at 4× CPU
 * throttling with its results read off `window.bench`, and the numbers' helpers.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';

export const RUNS = 5;
export const CPU_THROTTLE = 4;
export const VIEWPORT = { width: 360, height: 640 };
/** The product goals of both lists. */
export const GOAL = { firstRenderMs: 150, longTasks: 0 };

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };

/** Builds a bench page with its Vite config; a failed build throws. */
export function build(config, label) {
  const result = spawnSync('npx', ['vite', 'build', '--config', config], {
    stdio: 'inherit',
    // The bench configs import the app's vite.config for its plugins, which the native config loader would not resolve.
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  if (result.status !== 0) throw new Error(`${label} build failed (${result.status ?? result.signal})`);
}

/** A static server for the built page on an ephemeral port; missing files are 404. */
export function serve(root) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = await readFile(join(root, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * A fresh page at 4× CPU throttling with the bench loaded; its `window.bench` once rendered.
 * With `wait`, the page holds its start until it has been throttled (`?wait` / `window.benchGo`):
 * a navigation may move a page to another renderer, which would not be throttled yet.
 */
export async function load(context, url, { wait = false } = {}) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  if (wait) {
    await page.goto(`${url}${url.includes('?') ? '&' : '?'}wait`);
    await page.waitForFunction(() => window.benchGo ?? window.benchError);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLE });
    await page.evaluate(() => window.benchGo?.());
  } else {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLE });
    await page.goto(url);
  }
  await page.waitForFunction(() => window.bench ?? window.benchError, null, { timeout: 30_000 });
  const failure = await page.evaluate(() => window.benchError);
  if (failure || errors.length) throw new Error(`${url}: ${failure ?? errors.join('\n')}`);
  return { page, errors, result: await page.evaluate(() => ({ ...window.bench, scroll: undefined })) };
}

/** The middle value; of an even count, the mean of the two middle ones (not the upper one, which a slow outlier such as a first call would lift). */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
export const ms = (n) => `${n.toFixed(0)} ms`;

/** Above this share of CPU time busy just before a bench, other work is running. */
const BUSY_BEFORE = 0.25;

/**
 * The share of all CPUs' time spent busy over the next `ms` milliseconds: taken as a bench begins,
 * before its own browsers (and the call bench's cameras and server) load the machine. The load
 * average read at the end counted the bench's own work: the call bench alone pushes it past 3 on
 * 2 cores.
 */
export async function busyBefore(ms = 1000) {
  const total = () => cpus().reduce((sum, { times }) => ({
    idle: sum.idle + times.idle,
    all: sum.all + times.user + times.nice + times.sys + times.idle + times.irq,
  }), { idle: 0, all: 0 });
  const before = total();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = total();
  const all = after.all - before.all;
  return all > 0 ? 1 - (after.idle - before.idle) / all : 0;
}

/** A line saying the timings are inflated when other work was running as the bench began (`busyBefore`), else null. */
export function busyNote(busy) {
  return busy > BUSY_BEFORE
    ? `  (the CPUs were ${Math.round(busy * 100)}% busy in the second before the bench began: other work was running, timings are inflated)`
    : null;
}

/**
 * The machine's speed as Lighthouse measures it: its benchmarkIndex, half a second each of string
 * building and array copying in an unthrottled page (`pageFunctions.computeBenchmarkIndex`). The
 * rendering goals are times at 4× slowdown of whatever this machine does, and its speed moves by
 * a factor of two or more from hour to hour (benchmarkIndex 500–2,000 on the same day), so a
 * bench prints it beside its times: a slower time at a lower index is the machine, not the code.
 */
export async function machineSpeed(context) {
  const page = await context.newPage();
  try {
    return Math.round(await page.evaluate(pageFunctions.computeBenchmarkIndex));
  } finally {
    await page.close();
  }
}

/** The line a rendering bench prints with its times: the machine's speed before and after its runs (`machineSpeed`). */
export function speedNote(before, after) {
  return `  machine speed (Lighthouse benchmarkIndex; its 4× slowdown stands for a phone on a machine of ~1,500): ${before} before the runs, ${after} after`;
}
