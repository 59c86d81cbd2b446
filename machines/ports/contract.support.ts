/**
 * Helpers shared by the port contract suites (`*.contract.ts`): an event recorder and
 * waiting that works the same whether a port answers at once (the fakes) or over a real
 * socket (the local adapters).
 */

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
