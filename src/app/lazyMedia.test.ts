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
    await Promise.all([lazy.load(), lazy.load()]);
    expect(loads).toBe(1);
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
