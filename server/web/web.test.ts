import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_JS, INDEX_HTML, startTestServer, type TestServer } from '../testing/harness';
import { avatarNameFor, initialsOf } from './avatars';
import { CONTENT_SECURITY_POLICY } from './security';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const get = (path: string) => fetch(server.base + path);

function expectSecurityHeaders(res: Response) {
  expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
}

describe('the built app on the same origin', () => {
  it('serves index.html at / with no-cache and the security headers', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expectSecurityHeaders(res);
    expect(await res.text()).toBe(INDEX_HTML);
  });

  it('answers app routes with index.html (SPA fallback)', async () => {
    for (const path of ['/login', '/news/message/systemMsg?x=1', '/usdtPay/pay-status']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expectSecurityHeaders(res);
      expect(await res.text()).toBe(INDEX_HTML);
    }
  });

  it('caches hashed assets for a year and answers a missing one with 404, not HTML', async () => {
    const res = await get('/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(ASSET_JS);
    expect((await get('/assets/gone-000.js')).status).toBe(404);
  });

  it('does not fall back for the reserved prefixes', async () => {
    for (const path of ['/api/anything', '/shell/nothing-here', '/avatars/x.png']) {
      expect((await get(path)).status).toBe(404);
    }
  });

  it('answers 503 with a hint when there is no build', async () => {
    const bare = await startTestServer({ build: false });
    try {
      for (const path of ['/', '/login']) {
        const res = await fetch(bare.base + path);
        expect(res.status).toBe(503);
        expect(await res.text()).toContain('npm run build');
      }
    } finally {
      await bare.close();
    }
  });
});

describe('avatars', () => {
  it('draws the same SVG for the same name, with its initials', async () => {
    const a = await get('/avatars/host1.svg');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = await a.text();
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('>H1</text>');
    expect(await (await get('/avatars/host1.svg')).text()).toBe(svg);
    expect(await (await get('/avatars/host2.svg')).text()).not.toBe(svg);
  });

  it('refuses names outside [A-Za-z0-9_-]', async () => {
    for (const path of ['/avatars/host1.png', '/avatars/a%20b.svg', '/avatars/..%2Fapp.db.svg', '/avatars/.svg']) {
      expect((await get(path)).status).toBe(404);
    }
  });

  it('derives names and initials', () => {
    expect(avatarNameFor('Jane Doe')).toBe('jane-doe');
    expect(avatarNameFor('Ünïcode ✨')).toBe('unicode');
    expect(avatarNameFor('✨')).toBe('user');
    expect(initialsOf('jane-doe')).toBe('JD');
    expect(initialsOf('visitor-4821')).toBe('V4');
    expect(initialsOf('host12')).toBe('H12');
    expect(initialsOf('sofia')).toBe('SO');
  });
});
