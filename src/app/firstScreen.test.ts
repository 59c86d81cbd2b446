/** The first screen's code is fetched while the profile loads (SPEC §4 Login: host → /, non-host → /newsRestricted). */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const loaded: string[] = [];
vi.mock('./screens', () => ({
  screens: ['/', '/login', '/register', '/news', '/newsRestricted', '/mine', '/mineRestricted', '/talk', '/wallet'].map((path) => ({
    path,
    load: () => {
      loaded.push(path);
      return path === '/wallet' ? Promise.reject(new Error('offline')) : Promise.resolve({ default: () => null });
    },
  })),
}));

const { asksHomeEarly, firstScreenFor, preloadFirstScreen } = await import('./firstScreen');

beforeEach(() => { loaded.length = 0; });

describe('firstScreenFor', () => {
  it('sends a start on / or a public page home: / for a host, /newsRestricted for a non-host', () => {
    expect(firstScreenFor('host', '/')).toBe('/');
    expect(firstScreenFor('restricted', '/')).toBe('/newsRestricted');
    expect(firstScreenFor('restricted', '/login')).toBe('/newsRestricted');
    expect(firstScreenFor('host', '/register?x=1')).toBe('/');
  });

  it('keeps a deep link, mapped onto the mode\'s own tab roots', () => {
    expect(firstScreenFor('host', '/talk?to=a')).toBe('/talk');
    expect(firstScreenFor('restricted', '/mine')).toBe('/mineRestricted');
    expect(firstScreenFor('host', '/newsRestricted')).toBe('/news');
  });
});

describe('preloadFirstScreen', () => {
  it('fetches the last mode\'s first screen only', () => {
    expect(preloadFirstScreen('/', true, 'restricted')).toEqual(['/newsRestricted']);
    expect(loaded).toEqual(['/newsRestricted']);
  });

  it('fetches nothing while no mode is known (the profile tells it), a deep link\'s screen once it is', () => {
    expect(preloadFirstScreen('/', true, null)).toEqual([]);
    expect(preloadFirstScreen('/talk', true, null)).toEqual([]);
    expect(loaded).toEqual([]);
    expect(preloadFirstScreen('/talk', true, 'restricted')).toEqual(['/talk']);
    expect(loaded).toEqual(['/talk']);
  });

  it('signed out, fetches the login screen, or the public page the start is on', () => {
    expect(preloadFirstScreen('/', false, 'host')).toEqual(['/login']);
    expect(preloadFirstScreen('/talk?to=a', false, null)).toEqual(['/login']);
    expect(preloadFirstScreen('/register', false, null)).toEqual(['/register']);
    expect(loaded).toEqual(['/login', '/login', '/register']);
  });

  it('leaves a failed fetch to the route (no unhandled rejection)', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    expect(preloadFirstScreen('/wallet', true, 'host')).toEqual(['/wallet']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });
});

describe('asksHomeEarly', () => {
  it('a signed-in start that shows a host the home asks for its first answers, unless the last session was not a host\'s', () => {
    expect(asksHomeEarly('/', true, 'host')).toBe(true);
    expect(asksHomeEarly('/', true, null)).toBe(true);
    expect(asksHomeEarly('/login', true, null)).toBe(true);
    expect(asksHomeEarly('/', true, 'restricted')).toBe(false);
    expect(asksHomeEarly('/', false, null)).toBe(false);
    expect(asksHomeEarly('/talk?to=a', true, 'host')).toBe(false);
    expect(asksHomeEarly('/news', true, 'host')).toBe(false);
  });
});
