/** One preparation of the own media per call, and what a join needs got ready beside it (media.prepare.ts). */
import { describe, expect, it } from 'vitest';
import { ahead, onePreparation, tokenAhead } from './media.prepare';

describe('one preparation per call', () => {
  it('a second prepare while the first is under way or done answers with it; another kind of call opens again', async () => {
    const opened: boolean[] = [];
    let finish: () => void = () => {};
    const p = onePreparation((video) => {
      opened.push(video);
      return new Promise<void>((resolve) => { finish = resolve; });
    });
    const first = p.prepare(true);
    expect(p.prepare(true)).toBe(first);
    finish();
    await first;
    expect(p.prepare(true)).toBe(first);
    expect(opened).toEqual([true]);
    void p.prepare(false);
    expect(opened).toEqual([true, false]);
  });

  it('a refused one is tried again at the next prepare; after a leave (forget) the next call opens again', async () => {
    let tries = 0;
    const p = onePreparation(async () => {
      tries += 1;
      if (tries === 1) throw new Error('refused');
    });
    await expect(p.prepare(true)).rejects.toThrow('refused');
    await p.prepare(true);
    await p.prepare(true);
    expect(tries).toBe(2);
    p.forget();
    await p.prepare(true);
    expect(tries).toBe(3);
  });
});

describe('got ready ahead of the join', () => {
  it('is got once, taken once; a join after that gets its own (null here)', () => {
    let got = 0;
    const a = ahead(() => ++got);
    a.ready();
    a.ready();
    expect(a.take()).toBe(1);
    expect(a.take()).toBeNull();
    a.ready();
    expect(a.take()).toBe(2);
  });

  it('what is not taken is dropped when the call is left; a get that throws leaves nothing ready', () => {
    const dropped: string[] = [];
    const a = ahead(() => 'socket', (v) => dropped.push(v));
    a.ready();
    a.forget();
    expect(dropped).toEqual(['socket']);
    expect(a.take()).toBeNull();
    a.forget();
    expect(dropped).toEqual(['socket']);
    const broken = ahead<string>(() => { throw new Error('no WebSocket'); });
    broken.ready();
    expect(broken.take()).toBeNull();
  });

  it('a token that cannot be had is the join\'s to see, never an unhandled rejection', async () => {
    const t = tokenAhead(() => Promise.reject(new Error('offline')));
    t.ready();
    t.forget();
    t.ready();
    await expect(t.take()).rejects.toThrow('offline');
  });
});
