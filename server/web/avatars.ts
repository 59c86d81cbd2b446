/**
 * Same-origin placeholder pictures: `GET /avatars/<name>.svg` draws the initials of the
 * name on a colour taken from its hash, so every seeded icon and picture resolves without
 * a CDN and looks the same on every run.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The relative URL of the avatar called `name` (letters, digits, `_` and `-`). */
export function avatarUrl(name: string): string {
  if (!NAME.test(name)) throw new Error(`Not an avatar name: ${name}`);
  return `/avatars/${name}.svg`;
}

/** An avatar name for free text such as a nickname: 'Jane Doe' → 'jane-doe'. */
export function avatarNameFor(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '') // accents split off by NFKD: 'é' → 'e'
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 48);
  return slug || 'user';
}

/** 'host1' → 'H1', 'jane-doe' → 'JD', 'visitor-4821' → 'V4'. */
export function initialsOf(name: string): string {
  const parts = name.split(/[-_]+/).filter(Boolean);
  const [first = '?', second] = parts;
  if (second) return (first[0]! + second[0]!).toUpperCase();
  const lettersThenDigits = /^([A-Za-z])[A-Za-z]*(\d{1,2})/.exec(first);
  if (lettersThenDigits) return (lettersThenDigits[1]! + lettersThenDigits[2]!).toUpperCase();
  return first.slice(0, 2).toUpperCase();
}

export function avatarSvg(name: string): string {
  const hue = createHash('sha256').update(name).digest().readUInt16BE(0) % 360;
  // Initials are [A-Z0-9?] only, so they need no escaping.
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">',
    `<rect width="256" height="256" fill="hsl(${hue} 55% 45%)"/>`,
    `<circle cx="128" cy="128" r="96" fill="hsl(${(hue + 40) % 360} 60% 60%)"/>`,
    '<text x="128" y="128" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif"',
    ` font-size="88" font-weight="600" fill="#fff">${initialsOf(name)}</text>`,
    '</svg>',
  ].join('');
}

export function registerAvatars(app: FastifyInstance): void {
  app.get<{ Params: { file: string } }>('/avatars/:file', async (request, reply) => {
    const match = /^(.+)\.svg$/.exec(request.params.file);
    const name = match?.[1];
    if (!name || !NAME.test(name)) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(avatarSvg(name));
  });
}
