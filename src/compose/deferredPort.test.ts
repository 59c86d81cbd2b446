/** The stand-in of a port whose code loads on first use (deferredPort), with the per-use ports' loader (loadOnce). */
import { describe, expect, it } from 'vitest';
import { deferredPort, loadOnce } from './deferredPort';

interface EchoPort {
  say(text: string): Promise<string>;
  count(): Promise<number>;
  readonly name: string;
}

/** A load the test settles by hand, counting its attempts. */
function manualLoad<T>() {
  const pending: { resolve(value: T): void; reject(error: unknown): void }[] = [];
  const load = () => new Promise<T>((resolve, reject) => { pending.push({ resolve, reject }); });
  return { load, pending };
}

function echo(log: string[]): EchoPort {
  let said = 0;
  return {
    name: 'echo',
    async say(text) { log.push(text); said += 1; return `${this.name}:${text}`; },
    async count() { return said; },
  };
}

describe('deferredPort', () => {
  it('Scenario: calls made before the load resolves are forwarded in order once it does', async () => {
    const { load, pending } = manualLoad<EchoPort>();
    const port = deferredPort(loadOnce(load), ['say', 'count']);
    const log: string[] = [];
    const answers = [port.say('a'), port.say('b'), port.count(), port.say('c')];
    await Promise.resolve();
    expect(log).toEqual([]);
    expect(pending).toHaveLength(1);
    pending[0]!.resolve(echo(log));
    expect(await Promise.all(answers)).toEqual(['echo:a', 'echo:b', 2, 'echo:c']);
    expect(log).toEqual(['a', 'b', 'c']);
    // Loaded: later calls go straight to the port, loading nothing again.
    expect(await port.say('d')).toBe('echo:d');
    expect(pending).toHaveLength(1);
  });

  it('Scenario: a failed load rejects the calls that waited with its error; the next call loads again', async () => {
    const { load, pending } = manualLoad<EchoPort>();
    const port = deferredPort(loadOnce(load), ['say', 'count']);
    const waiting = [port.say('a'), port.count()];
    await Promise.resolve();
    pending[0]!.reject(new Error('chunk failed to load'));
    for (const answer of waiting) await expect(answer).rejects.toThrow('chunk failed to load');

    const log: string[] = [];
    const again = port.say('b');
    await Promise.resolve();
    expect(pending).toHaveLength(2);
    pending[1]!.resolve(echo(log));
    expect(await again).toBe('echo:b');
    expect(log).toEqual(['b']);
  });

  it('Scenario: a method of the loaded port that rejects rejects the call with its own error', async () => {
    const failing: EchoPort = { name: 'x', say: async () => { throw new Error('refused'); }, count: async () => 0 };
    const port = deferredPort(async () => failing, ['say', 'count']);
    await expect(port.say('a')).rejects.toThrow('refused');
    expect(await port.count()).toBe(0);
  });

  it('has only the methods it was given', () => {
    const port = deferredPort(async (): Promise<EchoPort> => echo([]), ['say']);
    expect(Object.keys(port)).toEqual(['say']);
  });
});
