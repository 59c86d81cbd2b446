import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_JS, INDEX_HTML, startTestServer, type TestServer } from '../testing/harness';
import { avatarNameFor, initialsOf } from './avatars';
import { PERMISSIONS_POLICY, STRICT_TRANSPORT_SECURITY, contentSecurityPolicy } from './security';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const get = (path: string) => fetch(server.base + path);

function expectSecurityHeaders(res: Response) {
  expect(res.headers.get('content-security-policy')).toBe(contentSecurityPolicy({}, new URL(server.base).host, false));
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
  expect(res.headers.get('permissions-policy')).toBe(PERMISSIONS_POLICY);
  // Plain http: no HSTS.
  expect(res.headers.get('strict-transport-security')).toBeNull();
}

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Record<string, string[]> {
  return Object.fromEntries((policy ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
}

describe('[§5] security headers', () => {
  it('loads pictures and media from this origin only, connects to it and its own hub only, and requires Trusted Types', async () => {
    const csp = directives((await get('/')).headers.get('content-security-policy'));
    const host = new URL(server.base).host;
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    expect(csp['media-src']).toEqual(["'self'", 'blob:', 'mediastream:']);
    expect(csp['connect-src']).toEqual(["'self'", `ws://${host}`]);
    expect(csp['require-trusted-types-for']).toEqual(["'script'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
  });

  it('gives camera and microphone to this origin only and turns off what the app does not use', async () => {
    const policy = (await get('/login')).headers.get('permissions-policy')!;
    const features = Object.fromEntries(policy.split(',').map((f) => f.trim().split('=') as [string, string]));
    expect(features).toMatchObject({ camera: '(self)', microphone: '(self)', geolocation: '()', payment: '()', usb: '()' });
  });

  it('adds the configured media and API hosts, and the clouds of the production SDKs when asked, and nothing else', async () => {
    const configured = await startTestServer({
      mediaHosts: ['cdn.example.com', '*.img.example.net', 'bad host; script-src *'], apiHosts: ['api.example.com'], cloudSdks: true,
    });
    try {
      const res = await fetch(configured.base + '/');
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp['img-src']).toEqual(expect.arrayContaining(['https://cdn.example.com', 'https://*.img.example.net', 'https://*.chatnos.com']));
      expect(csp['media-src']).toEqual(expect.arrayContaining(['https://cdn.example.com', 'https://*.img.example.net']));
      expect(csp['connect-src']).toEqual(expect.arrayContaining(['https://api.example.com', 'wss://*.netease.im', 'wss://*.agora.io']));
      // A host that is not a plain name adds nothing, and no directive allows any https host.
      expect(csp['script-src']).toEqual(["'self'"]);
      for (const values of Object.values(csp)) expect(values).not.toContain('https:');
      expect(res.headers.get('content-security-policy')).not.toContain('bad');
    } finally {
      await configured.close();
    }
  });

  it('sends HSTS for a request that came over TLS by a trusted proxy, and not when the proxy is not trusted', async () => {
    const overTls = { headers: { 'x-forwarded-proto': 'https' } };
    expect((await fetch(server.base + '/', overTls)).headers.get('strict-transport-security')).toBeNull();
    const proxied = await startTestServer({ trustProxy: true });
    try {
      const res = await fetch(proxied.base + '/', overTls);
      expect(res.headers.get('strict-transport-security')).toBe(STRICT_TRANSPORT_SECURITY);
      expect(directives(res.headers.get('content-security-policy'))['connect-src']).toContain(`wss://${new URL(proxied.base).host}`);
      expect((await fetch(proxied.base + '/')).headers.get('strict-transport-security')).toBeNull();
    } finally {
      await proxied.close();
    }
  });
});

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
