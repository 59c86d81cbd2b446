/** One preparation of the own media per call, and what a join needs got ready beside it (media.prepare.ts). */
import { describe, expect, it } from 'vitest';
import { keptToken, onePreparation, watchMediaAllowed } from './media.prepare';

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

  it('the failure of the call\'s current preparation is heard once, however its prepare was waited for; not one the call left or replaced', async () => {
    const heard: unknown[] = [];
    const refusals: ((error: Error) => void)[] = [];
    const p = onePreparation(() => new Promise<void>((_, reject) => { refusals.push(reject); }), (error) => heard.push(error));
    const left = p.prepare(true);
    p.forget();
    refusals[0]!(new Error('left'));
    await expect(left).rejects.toThrow('left');
    const replaced = p.prepare(true);
    const current = p.prepare(false);
    refusals[1]!(new Error('replaced'));
    await expect(replaced).rejects.toThrow('replaced');
    expect(heard).toEqual([]);
    const error = new Error('camera in use');
    refusals[2]!(error);
    await expect(current).rejects.toBe(error);
    expect(heard).toEqual([error]);
  });
});

describe('a token kept from one join to the next', () => {
  it('asked for once and reused while young; asked for again once older, or after a join refused it', async () => {
    let now = 0;
    let asked = 0;
    const t = keptToken(() => Promise.resolve(`token-${++asked}`), 60_000, () => now);
    expect(t.take('yx-a')).toBeNull();
    t.ready();
    t.ready();
    await expect(t.take('yx-a')).resolves.toBe('token-1');
    now += 30_000;
    t.ready();
    await expect(t.take('yx-a')).resolves.toBe('token-1');
    expect(asked).toBe(1);
    now += 30_001;
    expect(t.take('yx-a')).toBeNull();
    t.ready();
    await expect(t.take('yx-a')).resolves.toBe('token-2');
    t.forget();
    expect(t.take('yx-a')).toBeNull();
    t.ready();
    await expect(t.take('yx-a')).resolves.toBe('token-3');
  });

  it('one that failed to come is let go (never an unhandled rejection): the next ready asks again', async () => {
    let asked = 0;
    const t = keptToken(() => (++asked === 1 ? Promise.reject(new Error('offline')) : Promise.resolve('token')), 60_000);
    t.ready();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(t.take('yx-a')).toBeNull();
    t.ready();
    await expect(t.take('yx-a')).resolves.toBe('token');
    expect(asked).toBe(2);
  });

  it('a token that served one account is not handed to another (a sign-out and in since): it is asked for again', async () => {
    let asked = 0;
    const t = keptToken(() => Promise.resolve(`token-${++asked}`), 60_000);
    t.ready();
    await expect(t.take('yx-a')).resolves.toBe('token-1');
    t.claim('yx-a');
    await expect(t.take('yx-a')).resolves.toBe('token-1');
    expect(t.take('yx-b')).toBeNull();
    t.ready();
    await expect(t.take('yx-b')).resolves.toBe('token-2');
  });
});

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('camera and microphone allowed already', () => {
  it('knows both are allowed only when the Permissions API says so for both, and follows a change', async () => {
    const statuses = new Map<string, { state: PermissionState; listeners: (() => void)[] }>();
    const permissions = {
      query: async ({ name }: { name: string }) => {
        const status = { state: (name === 'camera' ? 'granted' : 'prompt') as PermissionState, listeners: [] as (() => void)[] };
        statuses.set(name, status);
        return Object.assign(status, { addEventListener: (_: string, l: () => void) => status.listeners.push(l) });
      },
    } as unknown as Permissions;
    const allowed = watchMediaAllowed(permissions);
    await flush();
    expect(allowed()).toBe(false);
    const microphone = statuses.get('microphone')!;
    microphone.state = 'granted';
    microphone.listeners.forEach((l) => l());
    expect(allowed()).toBe(true);
    expect(watchMediaAllowed(undefined)()).toBe(false);
  });
});
