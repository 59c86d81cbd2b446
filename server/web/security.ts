/**
 * Response headers for the one origin that serves the app, the dev shell and the API.
 * The policy allows no inline script anywhere (the dev shell included), same-origin frames
 * only, and https/ws connections for the production SDKs.
 */
import type { FastifyInstance } from 'fastify';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self' ws: wss: https:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
  "form-action 'self'",
].join('; ');

const HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** Adds the headers to every response: HTML pages need them, and they do no harm elsewhere (an SVG cannot run script either). */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(HEADERS);
    return payload;
  });
}
