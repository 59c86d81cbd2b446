/**
 * Response headers for the one origin that serves the app, the dev shell and the API.
 *
 * Content-Security-Policy: no inline script anywhere (the dev shell included), Trusted Types
 * for every script sink (`require-trusted-types-for 'script'`: nothing in the app writes HTML
 * or script URLs from strings), same-origin frames only. What the page may load and reach is
 * this origin plus what the deployment names, never "any https host":
 * - pictures and media: this origin, `data:`/`blob:` (and camera streams), and the media hosts
 *   (`mediaHosts`, the hosts stored picture URLs may point at: src/api/contract/media.ts);
 * - connections: this origin (its WebSocket hub too, named explicitly for browsers whose
 *   'self' leaves out ws:/wss:) and the API hosts (`apiHosts`: a separate API, the translator);
 * - with `cloudSdks` (an app built with VITE_REALTIME=production), the NetEase IM and Agora
 *   hosts their SDKs connect to and NetEase's file storage, where IM pictures live.
 *
 * Permissions-Policy gives camera and microphone (calls, going live) and the media features
 * a video app uses to this origin only, and turns off every other powerful feature.
 * Strict-Transport-Security is sent on responses to requests that came over TLS (directly,
 * or as a trusted proxy says: Fastify's `trustProxy`), never over plain http, where it means
 * nothing and would pin a development host to https.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface SecurityOptions {
  /** Hosts besides this origin that pictures and videos load from (`cdn.example.com`, `*.example.com`). */
  mediaHosts?: readonly string[];
  /** Hosts besides this origin that the app calls over https. */
  apiHosts?: readonly string[];
  /** Let the app reach the NetEase and Agora clouds (the production realtime adapters). */
  cloudSdks?: boolean;
}

/**
 * What the production adapters' SDKs (src/adapters/*.nim.ts, *.rtm.ts, rtc.agora.ts, from
 * nim-web-sdk-ng and agora-rtc-sdk-ng / agora-rtm-sdk) connect to: NetEase's load balancer,
 * WebSocket links and statistics; Agora's gateways, edge nodes (named by address under
 * edge.agora.io / edge.sd-rtn.com), proxies, logs and statistics.
 */
export const CLOUD_SDK_CONNECT = [
  'https://*.netease.im', 'wss://*.netease.im', 'https://*.126.net',
  'https://*.agora.io', 'wss://*.agora.io', 'https://*.sd-rtn.com', 'wss://*.sd-rtn.com', 'https://*.agoraio.cn', 'wss://*.agoraio.cn',
] as const;
/** Where NetEase keeps IM pictures, audio and video (NOS), which the chat shows. */
export const CLOUD_SDK_MEDIA = ['https://*.netease.im', 'https://*.netease.com', 'https://*.chatnos.com'] as const;

export const PERMISSIONS_POLICY = [
  'camera=(self)', 'microphone=(self)', 'autoplay=(self)', 'fullscreen=(self)', 'picture-in-picture=(self)',
  'display-capture=()', 'geolocation=()', 'payment=()', 'usb=()', 'serial=()', 'hid=()', 'bluetooth=()', 'midi=()',
  'accelerometer=()', 'gyroscope=()', 'magnetometer=()', 'idle-detection=()', 'screen-wake-lock=()',
  'publickey-credentials-get=()', 'web-share=()', 'xr-spatial-tracking=()', 'encrypted-media=()',
].join(', ');

/** One year: the usual HSTS lifetime. No includeSubDomains: other hosts of the deployment's domain are not ours to pin. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** `cdn.example.com` → `https://cdn.example.com`; anything that is not a plain host (pattern) is left out, so it cannot add a directive. */
function httpsSources(hosts: readonly string[] = []): string[] {
  return hosts
    .map((h) => h.trim().toLowerCase())
    .filter((h) => /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(h))
    .map((h) => `https://${h}`);
}

/** The policy for a page served at `host` (the request's Host, when it is a plain host[:port]). */
export function contentSecurityPolicy(options: SecurityOptions, host: string | null, tls: boolean): string {
  const cloudConnect = options.cloudSdks ? CLOUD_SDK_CONNECT : [];
  const cloudMedia = options.cloudSdks ? CLOUD_SDK_MEDIA : [];
  const media = [...httpsSources(options.mediaHosts), ...cloudMedia];
  const hub = host ? [`${tls ? 'wss' : 'ws'}://${host}`] : [];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    ['img-src', "'self'", 'data:', 'blob:', ...media].join(' '),
    ['media-src', "'self'", 'blob:', 'mediastream:', ...media].join(' '),
    ['connect-src', "'self'", ...hub, ...httpsSources(options.apiHosts), ...cloudConnect].join(' '),
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
    "form-action 'self'",
    "require-trusted-types-for 'script'",
  ].join('; ');
}

const PLAIN_HOST = /^[a-z0-9.-]+(:\d{1,5})?$/i;

function hostOf(request: FastifyRequest): string | null {
  const host = request.headers.host;
  return host && PLAIN_HOST.test(host) ? host.toLowerCase() : null;
}

/** Adds the headers to every response: HTML pages need them, and they do no harm elsewhere (an SVG cannot run script either). */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityOptions = {}): void {
  const fixed = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'permissions-policy': PERMISSIONS_POLICY,
  };
  app.addHook('onSend', async (request, reply, payload) => {
    const tls = request.protocol === 'https';
    reply.headers({ ...fixed, 'content-security-policy': contentSecurityPolicy(options, hostOf(request), tls) });
    if (tls) reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    return payload;
  });
}
