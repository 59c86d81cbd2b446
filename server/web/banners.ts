/**
 * Same-origin banner pictures for /api/index/v2/getAppPicByType: `GET /banners/<name>.svg`
 * draws one of the banners below (a title and a line on a gradient taken from the name's
 * hash), so seeded banners resolve without a CDN. Unknown names answer 404: the text comes
 * from this table, never from the URL.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const BANNERS = {
  'invite-friends': ['Invite friends', 'A reward for every friend who joins'],
  'top-hosts': ['Top hosts this week', 'See who leads the ranking'],
  'daily-tasks': ['Daily tasks', 'Finish tasks and collect points'],
  'go-live': ['Go live tonight', 'Live rooms get the most visitors after 8 pm'],
  'live-gifts': ['New live gifts', 'Send a gift and light up the room'],
  'vip-club': ['Become VIP', 'A discount on every call & pinned chats'],
} as const satisfies Record<string, readonly [string, string]>;
export type BannerName = keyof typeof BANNERS;

export const BANNER_WIDTH = 750;
export const BANNER_HEIGHT = 300;

const isBanner = (name: string): name is BannerName => Object.hasOwn(BANNERS, name);

/** The relative URL of a banner. */
export function bannerUrl(name: BannerName): string {
  return `/banners/${name}.svg`;
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

export function bannerSvg(name: BannerName): string {
  const [title, line] = BANNERS[name];
  const hue = createHash('sha256').update(name).digest().readUInt16BE(0) % 360;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${BANNER_WIDTH}" height="${BANNER_HEIGHT}" viewBox="0 0 ${BANNER_WIDTH} ${BANNER_HEIGHT}">`,
    '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">',
    `<stop offset="0" stop-color="hsl(${hue} 70% 55%)"/><stop offset="1" stop-color="hsl(${(hue + 50) % 360} 70% 40%)"/>`,
    '</linearGradient></defs>',
    `<rect width="${BANNER_WIDTH}" height="${BANNER_HEIGHT}" rx="24" fill="url(#g)"/>`,
    `<circle cx="640" cy="70" r="120" fill="hsl(${(hue + 90) % 360} 80% 70%)" opacity="0.35"/>`,
    '<text x="48" y="140" font-family="system-ui, sans-serif" font-size="56" font-weight="700" fill="#fff">',
    `${escapeXml(title)}</text>`,
    '<text x="48" y="200" font-family="system-ui, sans-serif" font-size="30" fill="#fff" opacity="0.9">',
    `${escapeXml(line)}</text>`,
    '</svg>',
  ].join('');
}

export function registerBanners(app: FastifyInstance): void {
  app.get<{ Params: { file: string } }>('/banners/:file', async (request, reply) => {
    const name = /^(.+)\.svg$/.exec(request.params.file)?.[1];
    if (!name || !isBanner(name)) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(bannerSvg(name));
  });
}
