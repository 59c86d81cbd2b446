/**
 * `npm test`: typecheck, lint, unit/machine/server tests (vitest), the light run of the
 * reliability probes (`npm run reliability -- --light`) and the end-to-end tests (Playwright in
 * Debian's Chromium against the real reference server), then one closing line
 * `N passed, N failed` summed over all runners. Exits non-zero if anything failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium } from './chromium.mjs';

const results = [];
const tmp = '.tmp/test-results';
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });

function run(name, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`=== ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${seconds}s`);
  return result.status === 0;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** A runner's counts; a runner that failed outside any test still counts one failure. */
function record(name, ok, passed, failed) {
  results.push({ name, passed, failed: !ok && failed === 0 ? 1 : failed });
}

// 1. Static checks count as one test each.
const typecheckOk = run('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
record('typecheck', typecheckOk, typecheckOk ? 1 : 0, 0);
const lintOk = run('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
record('lint', lintOk, lintOk ? 1 : 0, 0);

// 2. vitest: machines, api, adapters, and the server over real HTTP.
const vitestJson = `${tmp}/vitest.json`;
const vitestOk = run('vitest', 'npx', ['vitest', 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${vitestJson}`]);
const vitest = readJson(vitestJson);
record('vitest', vitestOk, vitest?.numPassedTests ?? 0, vitest?.numFailedTests ?? 0);

// 3. The light run of the reliability probes (tests/reliability): each probe counts as one test.
const reliabilityJson = `${tmp}/reliability.json`;
const reliabilityOk = run('reliability', 'node', ['scripts/reliability.mjs', '--light', `--json=${reliabilityJson}`]);
const reliability = readJson(reliabilityJson);
record('reliability', reliabilityOk, reliability?.passed ?? 0, reliability?.failed ?? 0);

// 4. Playwright end-to-end in Debian's Chromium against the reference server.
let chromium = null;
try {
  chromium = ensureChromium();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
}
if (chromium) {
  const pwJson = `${tmp}/playwright.json`;
  const pwOk = run('e2e', 'npx', ['playwright', 'test'], { PW_JSON: pwJson, CHROME_PATH: chromium });
  const stats = readJson(pwJson)?.stats;
  record('e2e', pwOk, (stats?.expected ?? 0) + (stats?.flaky ?? 0), stats?.unexpected ?? 0);
} else {
  record('e2e', false, 0, 0);
}

console.log('\nSummary:');
for (const r of results) console.log(`  ${r.name.padEnd(12)} ok ${r.passed}, not ok ${r.failed}`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
