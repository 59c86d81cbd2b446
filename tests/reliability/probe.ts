/**
 * What a probe is and how its figures are written. A probe starts its own server, attacks it
 * and answers one line of figures and the bounds it broke (none: it passes). The runner
 * (run.ts) prints `[reliability] <name>: <figures> — ok` or `— FAILED: <broken bounds>`,
 * one line a probe, in a format kept stable so that runs can be compared.
 */
import { availableParallelism, loadavg } from 'node:os';

export interface ProbeContext {
  /** The light run of `npm test`: fewer requests, same bounds. */
  light: boolean;
  /** The checkout whose server is attacked. */
  checkout: string;
  /** A progress note (printed only with --verbose). */
  note(text: string): void;
  /** Aborted when the probe ran past its budget: a loop that could go on must stop. */
  signal: AbortSignal;
}

export interface ProbeResult {
  figures: string;
  /** Each bound broken, as a sentence fragment ('replays moved 733 (bound 0)'); empty when all held. */
  broken: string[];
  /** Named numbers for the JSON report. */
  numbers: Record<string, number>;
}

export interface Probe {
  name: string;
  /** What it checks, for --list. */
  summary: string;
  /** Seconds the probe may take (light, full); beyond that it fails. */
  budgetSeconds: { light: number; full: number };
  run(ctx: ProbeContext): Promise<ProbeResult>;
}

/** 12345 → '12,345'. */
export const n = (value: number): string => Math.round(value).toLocaleString('en-US');

/** Milliseconds with one decimal under 10, whole above. */
export const ms = (value: number): string => (value < 10 ? value.toFixed(1) : String(Math.round(value))) + ' ms';

/** Bytes as MiB with one decimal. */
export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The p-th percentile (0–100) of the values (nearest rank); 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** Collects the bounds a probe broke. */
export class Bounds {
  readonly broken: string[] = [];

  /** Records `what` as broken unless `held`. */
  check(held: boolean, what: string): void {
    if (!held) this.broken.push(what);
  }
}

/**
 * The machine's load beside a time figure ('load 8.8 on 2 cores'): other work on a shared
 * machine lengthens every latency, and a p99 read without it can mislead.
 */
export const machineLoad = (): string => `load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;

export const sleep = (msToWait: number) => new Promise<void>((resolve) => setTimeout(resolve, msToWait));

/** Runs `work` on every item with at most `limit` at once. */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  });
  await Promise.all(lanes);
}

/**
 * The latency bound a run holds a figure under load to: `absoluteMs` in the full run; the light
 * run inside `npm test` shares a busy machine with other suites, so it also allows three times
 * what the same run measured alone (the failures these probes exist for were 20-100 times).
 */
export function latencyBound(light: boolean, absoluteMs: number, aloneP99Ms: number): number {
  return light ? Math.max(absoluteMs, 3 * aloneP99Ms) : absoluteMs;
}

/** A seeded pseudo-random generator, so that a run can be repeated. */
export { seededRandom as random } from '../../server/testing/random';
