/**
 * Helpers shared by the port contract suites (`*.contract.ts`): an event recorder and
 * waiting that works the same whether a port answers at once (the fakes) or over a real
 * socket (the local adapters).
 */

import { afterEach, beforeEach } from 'vitest';

/** Every event a subscription delivered, in order. */
export class Recorder<E extends { type: string }> {
  readonly events: E[] = [];
  private readonly stop: () => void;

  constructor(subscribe: (listener: (event: E) => void) => () => void) {
    this.stop = subscribe((event) => this.events.push(event));
  }

  of<T extends E['type']>(type: T): Extract<E, { type: T }>[] {
    return this.events.filter((e): e is Extract<E, { type: T }> => e.type === type);
  }

  dispose(): void {
    this.stop();
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retries `check` until it stops throwing (or `timeoutMs` passes, then rethrows its last error). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(5);
    }
  }
}

/** Long enough for a stray event over loopback to arrive: used before asserting that nothing more came. */
export const settle = () => sleep(60);

/** What a promise settled with, so a test can assert on a rejection's fields. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected a rejection, but the promise resolved.');
}

/**
 * The per-test life of a contract suite: a fresh rig before each test (then `prepare`),
 * and after it every recorder made during the test disposed, then the rig.
 */
export function perTest<R extends { dispose(): void | Promise<void> }>(
  factory: () => R | Promise<R>,
  prepare?: (rig: R) => void | Promise<void>,
) {
  let current: R | null = null;
  const recorders: { dispose(): void }[] = [];
  beforeEach(async () => {
    current = await factory();
    await prepare?.(current);
  });
  afterEach(async () => {
    recorders.splice(0).forEach((r) => r.dispose());
    await current?.dispose();
    current = null;
  });
  return {
    get rig(): R {
      if (!current) throw new Error('The rig exists only inside a test.');
      return current;
    },
    record<E extends { type: string }>(subscribe: (listener: (event: E) => void) => () => void): Recorder<E> {
      const recorder = new Recorder<E>(subscribe);
      recorders.push(recorder);
      return recorder;
    },
  };
}
