/**
 * The built app (Vite's `dist`: index.html + assets/) on the same origin as the API.
 * Hashed files under /assets/ are cached for a year and sent Brotli- or gzip-compressed when the
 * build wrote such copies and the browser accepts them; index.html is revalidated on every
 * load so a rebuild reaches the browser. Any other GET that matches neither a route nor a
 * file is an app route and gets index.html (SPA fallback).
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const text = 'text/plain; charset=utf-8';

/** Paths that are never app routes: they answer 404 rather than index.html. */
const NOT_APP_ROUTES = /^\/(?:api(?:\/|$)|shell|avatars\/|assets\/)/;

export async function registerStaticApp(app: FastifyInstance, distDir: string): Promise<void> {
  const assetsDir = join(distDir, 'assets') + sep;

  await app.register(fastifyStatic, {
    root: distDir,
    // Reads files per request, so a build made after start-up is served without a restart.
    wildcard: true,
    // The fallback below explains a missing build better than a start-up warning.
    suppressWarning: true,
    // The build writes .br and .gz copies of its scripts and styles (vite.config.ts): sent to browsers that accept them.
    preCompressed: true,
    setHeaders(reply, path) {
      if (path.endsWith('.html')) reply.header('cache-control', 'no-cache');
      else if (path.startsWith(assetsDir)) reply.header('cache-control', IMMUTABLE);
    },
  });

  async function sendIndex(reply: FastifyReply) {
    let html: Buffer;
    try {
      html = await readFile(join(distDir, 'index.html'));
    } catch {
      return reply.code(503).type(text).send('The app is not built yet: run `npm run build`, then reload this page.\n');
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !NOT_APP_ROUTES.test(path);
    if (isPage) return sendIndex(reply);
    return reply.code(404).type(text).send('Not Found\n');
  });
}
