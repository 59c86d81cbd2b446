/**
 * Same-origin gift pictures for /api/gift/v2/getGiftList: `GET /gifts/<key>.svg` is the
 * gift's icon (256 px, shown when it is received) and `GET /gifts/<key>-small.svg` its small
 * picture (96 px, the gift popup). Each draws the gift's shape from the table below on a
 * colour taken from the key's hash, so seeded gifts resolve without a CDN. Unknown keys
 * answer 404: what is drawn comes from this table, never from the URL.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

type Shape = 'heart' | 'star' | 'gem' | 'flower' | 'crown' | 'box' | 'ring' | 'rocket';

/** key → [name, shape]. */
export const GIFT_PICTURES = {
  rose: ['Rose', 'flower'],
  heart: ['Heart', 'heart'],
  kiss: ['Kiss', 'heart'],
  lollipop: ['Lollipop', 'ring'],
  star: ['Lucky Star', 'star'],
  teddy: ['Teddy Bear', 'box'],
  chocolate: ['Chocolate', 'box'],
  perfume: ['Perfume', 'gem'],
  ring: ['Diamond Ring', 'ring'],
  crown: ['Crown', 'crown'],
  diamond: ['Diamond', 'gem'],
  rocket: ['Rocket', 'rocket'],
  castle: ['Castle', 'crown'],
  fireworks: ['Fireworks', 'star'],
} as const satisfies Record<string, readonly [string, Shape]>;
export type GiftPicture = keyof typeof GIFT_PICTURES;

const isGift = (key: string): key is GiftPicture => Object.hasOwn(GIFT_PICTURES, key);

export const giftIconUrl = (key: GiftPicture): string => `/gifts/${key}.svg`;
export const giftSmallUrl = (key: GiftPicture): string => `/gifts/${key}-small.svg`;

/** Shapes drawn in a 100 × 100 box. */
const SHAPES: Readonly<Record<Shape, string>> = {
  heart: '<path d="M50 86 L16 50 A18 18 0 0 1 50 24 A18 18 0 0 1 84 50 Z"/>',
  star: '<path d="M50 12 L61 38 L89 40 L67 58 L74 86 L50 71 L26 86 L33 58 L11 40 L39 38 Z"/>',
  gem: '<path d="M30 20 H70 L88 42 L50 88 L12 42 Z"/>',
  flower: '<circle cx="50" cy="30" r="16"/><circle cx="30" cy="48" r="16"/><circle cx="70" cy="48" r="16"/>'
    + '<circle cx="38" cy="70" r="16"/><circle cx="62" cy="70" r="16"/>',
  crown: '<path d="M14 74 L20 30 L38 50 L50 20 L62 50 L80 30 L86 74 Z"/>',
  box: '<rect x="18" y="38" width="64" height="46" rx="6"/><rect x="12" y="26" width="76" height="16" rx="4"/>',
  ring: '<circle cx="50" cy="58" r="28" fill="none" stroke-width="10" stroke="currentColor"/><path d="M40 14 H60 L68 26 L50 40 L32 26 Z"/>',
  rocket: '<path d="M50 10 C68 26 70 50 64 72 H36 C30 50 32 26 50 10 Z"/><path d="M36 60 L22 82 L38 74 Z M64 60 L78 82 L62 74 Z"/>',
};

export function giftSvg(key: GiftPicture, size: number): string {
  const [, shape] = GIFT_PICTURES[key];
  const hue = createHash('sha256').update(`gift:${key}`).digest().readUInt16BE(0) % 360;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">`,
    '<defs><radialGradient id="g" cx="0.35" cy="0.3" r="0.8">',
    `<stop offset="0" stop-color="hsl(${hue} 90% 75%)"/><stop offset="1" stop-color="hsl(${(hue + 30) % 360} 75% 45%)"/>`,
    '</radialGradient></defs>',
    `<g fill="url(#g)" color="hsl(${hue} 75% 50%)" stroke="hsl(${hue} 60% 30%)" stroke-width="2">${SHAPES[shape]}</g>`,
    '</svg>',
  ].join('');
}

export function registerGiftPictures(app: FastifyInstance): void {
  app.get<{ Params: { file: string } }>('/gifts/:file', async (request, reply) => {
    const match = /^(.+?)(-small)?\.svg$/.exec(request.params.file);
    const key = match?.[1];
    if (!key || !isGift(key)) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(giftSvg(key, match[2] ? 96 : 256));
  });
}
