/** The media stand-in of calls and live rooms: loads once on first use, passes events and the view through, tries a failed load again. */
import { describe, expect, it } from 'vitest';
import type { CallMediaView } from '../../machines/ports/call.media';
import { lazyMedia } from './lazyMedia';

function adapter() {
  const listeners = new Set<(e: string) => void>();
  const viewers = new Set<() => void>();
  let local: MediaStream | null = null;
  const media: CallMediaView = {
    local: () => local,
    remote: () => null,
    subscribe: (v) => { viewers.add(v); return () => viewers.delete(v); },
  };
  return {
    media,
    left: 0,
    async leave() { this.left++; },
    subscribe: (l: (e: string) => void) => { listeners.add(l); return () => listeners.delete(l); },
    emit: (e: string) => listeners.forEach((l) => l(e)),
    show: (stream: MediaStream) => { local = stream; viewers.forEach((v) => v()); },
  };
}

describe('lazyMedia', () => {
  it('loads nothing to leave, loads once for many uses, and passes events and the view through', async () => {
    const loaded = adapter();
    let loads = 0;
    const lazy = lazyMedia<ReturnType<typeof adapter>, string>(async () => { loads++; return loaded; });
    await lazy.leave();
    expect(loads).toBe(0);
    const events: string[] = [];
    lazy.subscribe((e) => events.push(e));
    let viewChanges = 0;
    lazy.media.subscribe(() => viewChanges++);
    expect(lazy.loaded()).toBeNull();
    await Promise.all([lazy.load(), lazy.load()]);
    expect(loads).toBe(1);
    expect(lazy.loaded()).toBe(loaded);
    expect(viewChanges).toBe(1);
    loaded.emit('firstRemoteFrame');
    const stream = {} as MediaStream;
    loaded.show(stream);
    expect(events).toEqual(['firstRemoteFrame']);
    expect(lazy.media.local()).toBe(stream);
    expect(viewChanges).toBe(2);
    await lazy.leave();
    expect(loaded.left).toBe(1);
  });

  it('a loaded adapter is used at once, before anything queued meanwhile; before it loads, once it has', async () => {
    const loaded = adapter();
    const lazy = lazyMedia<ReturnType<typeof adapter>, string>(async () => loaded);
    const order: string[] = [];
    const first = lazy.withAdapter(async () => { order.push('used while loading'); });
    order.push('asked');
    await first;
    queueMicrotask(() => order.push('queued before'));
    void lazy.withAdapter(async () => { order.push('used at once'); });
    await Promise.resolve();
    expect(order).toEqual(['asked', 'used while loading', 'used at once', 'queued before']);
    await expect(lazy.withAdapter(() => { throw new Error('refused'); })).rejects.toThrow('refused');
  });

  it('a load that failed every attempt fails the use, and the next use tries again', async () => {
    let fail = true;
    let tries = 0;
    const lazy = lazyMedia<ReturnType<typeof adapter>, string>(async () => {
      tries++;
      if (fail) throw new Error('chunk unreachable');
      return adapter();
    });
    await expect(lazy.load()).rejects.toThrow(/could not be loaded after 3 attempts/);
    expect(tries).toBe(3);
    fail = false;
    await expect(lazy.load()).resolves.toBeTruthy();
    expect(tries).toBe(4);
  }, 10_000);
});
