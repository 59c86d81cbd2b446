/**
 * The runner of `npm run reliability` (scripts/reliability.mjs starts it): runs each probe in
 * turn, each against a server of its own, and prints one line of figures a probe. A probe
 * fails when it breaks one of its bounds, throws, or runs past its time budget; the run exits
 * non-zero when any failed.
 *
 *   --light              fewer requests (the run inside `npm test`), same bounds
 *   --only=money,fuzz    these probes only
 *   --checkout=PATH      attack the server of another checkout (e.g. the code before a change)
 *   --json=PATH          also write the results as JSON
 *   --verbose            progress notes
 *   --list               the probes and what each checks
 *
 * Loopback only: every server listens on 127.0.0.1 and every request comes from 127.0.0.0/8.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { authzProbe } from './authz.probe';
import { crashProbe } from './crash.probe';
import { fuzzProbe } from './fuzz.probe';
import { hubProbe } from './hub.probe';
import { limitsProbe } from './limits.probe';
import { loginProbe } from './login.probe';
import { moneyProbe } from './money.probe';
import { machineLoad, type Probe, type ProbeResult } from './probe';
import { killAllServers, removeServerFolders } from './server';

export const PROBES: readonly Probe[] = [moneyProbe, crashProbe, fuzzProbe, authzProbe, loginProbe, limitsProbe, hubProbe];

interface Outcome {
  name: string;
  ok: boolean;
  seconds: number;
  figures: string;
  broken: string[];
  numbers: Record<string, number>;
}

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}
const flag = (name: string) => process.argv.includes(`--${name}`);

class OverBudget extends Error {}

async function runOne(probe: Probe, light: boolean, checkout: string, verbose: boolean): Promise<Outcome> {
  const budget = light ? probe.budgetSeconds.light : probe.budgetSeconds.full;
  const started = Date.now();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const overBudget = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OverBudget(`took longer than its ${budget} s budget`)), budget * 1000);
  });
  const note = (text: string) => {
    if (verbose) console.log(`  ${probe.name}: ${text}`);
  };
  const running = probe.run({ light, checkout, note, signal: abort.signal });
  try {
    const result: ProbeResult = await Promise.race([running, overBudget]);
    return { name: probe.name, ok: result.broken.length === 0, seconds: (Date.now() - started) / 1000, ...result };
  } catch (err) {
    if (err instanceof OverBudget) {
      // A probe over its budget stops, and its server goes, before the next one starts.
      abort.abort();
      killAllServers();
      await Promise.race([running.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 15_000))]);
      killAllServers();
    }
    const message = err instanceof Error ? err.message : String(err);
    return { name: probe.name, ok: false, seconds: (Date.now() - started) / 1000, figures: 'no figures', broken: [message], numbers: {} };
  } finally {
    clearTimeout(timer);
  }
}

async function main(): Promise<void> {
  if (flag('list')) {
    for (const probe of PROBES) console.log(`${probe.name.padEnd(8)} ${probe.summary}`);
    return;
  }
  const light = flag('light');
  const verbose = flag('verbose');
  const checkout = resolve(option('checkout') ?? '.');
  const only = option('only')?.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = only?.filter((name) => !PROBES.some((p) => p.name === name)) ?? [];
  if (unknown.length > 0) {
    console.error(`No probe named ${unknown.join(', ')}; the probes are ${PROBES.map((p) => p.name).join(', ')}.`);
    process.exitCode = 2;
    return;
  }
  const chosen = only ? PROBES.filter((p) => only.includes(p.name)) : PROBES;
  console.log(`[reliability] ${light ? 'light' : 'full'} run of ${chosen.length} probes against ${checkout} (${machineLoad()})`);
  const outcomes: Outcome[] = [];
  const started = Date.now();
  for (const probe of chosen) {
    const outcome = await runOne(probe, light, checkout, verbose);
    outcomes.push(outcome);
    const verdict = outcome.ok ? 'ok' : `FAILED: ${outcome.broken.join('; ')}`;
    console.log(`[reliability] ${outcome.name}: ${outcome.figures} — ${verdict} (${outcome.seconds.toFixed(1)} s)`);
  }
  const failed = outcomes.filter((o) => !o.ok).length;
  const seconds = (Date.now() - started) / 1000;
  console.log(`[reliability] ${outcomes.length - failed} passed, ${failed} failed in ${seconds.toFixed(1)} s`);
  const json = option('json');
  if (json) writeFileSync(json, JSON.stringify({ light, checkout, seconds, passed: outcomes.length - failed, failed, probes: outcomes }, null, 2));
  process.exitCode = failed === 0 ? 0 : 1;
}

process.on('exit', () => {
  killAllServers();
  removeServerFolders();
});
// A probe stopped over its budget may still reject later; that is already counted as its failure.
process.on('unhandledRejection', (reason) => {
  if (process.argv.includes('--verbose')) console.log(`  (after its end) ${reason instanceof Error ? reason.message : String(reason)}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllServers();
    process.exit(130);
  });
}

await main();
// Pooled sockets or timers a probe left must not keep the run alive.
process.exit();
