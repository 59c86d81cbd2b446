/**
 * `npm test`: typecheck, lint, unit/machine/server tests (vitest), the light run of the
 * reliability probes (`npm run reliability -- --light`) and the end-to-end tests (Playwright in
 * Debian's Chromium against the real reference server), then one closing line
 * `N passed, N failed` summed over all runners. Exits non-zero if anything failed.
 *
 * The typecheck, the lint and the app build the end-to-end tests serve run side by side (tsc and
 * eslint use one core each); everything after runs alone, the probes' latency figures above all.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ensureChromium } from './chromium.mjs';
import { E2E_BUILD_ENV, e2eBuildCommand, e2eDistDir } from './e2e-build.mjs';

const results = [];
/** Seconds each step took, printed in the summary (a log cut to its tail still shows where the time went). */
const took = {};
const startedAll = Date.now();
/** One line per failed test, printed again above the summary. */
const failures = [];
/** The first non-empty line of an error message, without colour codes. */
const firstLine = (text) => (stripVTControlCharacters(String(text ?? '')).split('\n').find((l) => l.trim() !== '') ?? '').trim().slice(0, 300);
const tmp = '.tmp/test-results';
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });

function run(name, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  took[name] = seconds;
  console.log(`=== ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${seconds}s`);
  return result.status === 0;
}

/** Like `run`, but beside others: its output is held and printed in one piece when it ends. */
function runBeside(name, command, args, env = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const end = (ok) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      took[name] = seconds;
      console.log(`\n=== ${name}: ${[command, ...args].join(' ')}`);
      process.stdout.write(Buffer.concat(output));
      console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds}s`);
      resolve(ok);
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      end(false);
    });
    child.on('close', (code) => end(code === 0));
  });
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

// 1. Static checks count as one test each. Beside them, the app build of step 4 (not a test: if it
// fails, Playwright's webServer step builds again and fails there).
const e2eDist = e2eDistDir();
const [typecheckOk, lintOk, e2eBuilt] = await Promise.all([
  runBeside('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']),
  runBeside('lint', 'npx', ['eslint', '.', '--max-warnings', '0']),
  runBeside('e2e build', 'sh', ['-c', e2eBuildCommand(e2eDist)], E2E_BUILD_ENV),
]);
record('typecheck', typecheckOk, typecheckOk ? 1 : 0, 0);
record('lint', lintOk, lintOk ? 1 : 0, 0);

// 2. vitest: machines, api, adapters, and the server over real HTTP.
const vitestJson = `${tmp}/vitest.json`;
const vitestOk = run('vitest', 'npx', ['vitest', 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${vitestJson}`]);
const vitest = readJson(vitestJson);
record('vitest', vitestOk, vitest?.numPassedTests ?? 0, vitest?.numFailedTests ?? 0);
for (const file of vitest?.testResults ?? []) {
  for (const t of file.assertionResults ?? []) {
    if (t.status === 'failed') failures.push(`vitest ${relative(process.cwd(), file.name)} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
  }
  if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
    failures.push(`vitest ${relative(process.cwd(), file.name)}: ${firstLine(file.message)}`);
  }
}

// 3. The light run of the reliability probes (tests/reliability): each probe counts as one test.
const reliabilityJson = `${tmp}/reliability.json`;
const reliabilityOk = run('reliability', 'node', ['scripts/reliability.mjs', '--light', `--json=${reliabilityJson}`]);
const reliability = readJson(reliabilityJson);
record('reliability', reliabilityOk, reliability?.passed ?? 0, reliability?.failed ?? 0);
for (const probe of reliability?.probes ?? []) {
  if (!probe.ok) failures.push(`reliability ${probe.name}: ${firstLine((probe.broken ?? []).join('; '))}`);
}

// 4. Playwright end-to-end in Debian's Chromium against the reference server.
let chromium = null;
const chromiumStarted = Date.now();
try {
  chromium = ensureChromium();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
}
took.chromium = ((Date.now() - chromiumStarted) / 1000).toFixed(1);
if (chromium) {
  const pwJson = `${tmp}/playwright.json`;
  const pwOk = run('e2e', 'npx', ['playwright', 'test'], {
    PW_JSON: pwJson, CHROME_PATH: chromium, ...(e2eBuilt ? { E2E_PREBUILT: e2eDist } : {}),
  });
  const report = readJson(pwJson);
  const stats = report?.stats;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === 'unexpected') {
          const error = t.results?.find((r) => r.error)?.error?.message;
          failures.push(`e2e ${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}: ${firstLine(error)}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith('.ts') ? [...titles, child.title] : titles);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  record('e2e', pwOk, (stats?.expected ?? 0) + (stats?.flaky ?? 0), stats?.unexpected ?? 0);
} else {
  record('e2e', false, 0, 0);
}

if (failures.length > 0) {
  // Named again at the end, where a log cut to its tail still shows them.
  console.log('\nFailed:');
  for (const f of failures) console.log(`  ${f}`);
}
console.log('\nSummary:');
for (const r of results) console.log(`  ${r.name.padEnd(12)} ok ${r.passed}, not ok ${r.failed}${took[r.name] ? ` (${took[r.name]} s)` : ''}`);
const steps = Object.entries(took).map(([name, seconds]) => `${name} ${seconds} s`).join(', ');
console.log(`  time         ${((Date.now() - startedAll) / 1000).toFixed(1)} s in all: ${steps}`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
