/**
 * Same-origin icons of the payment channels for /api/wallet/rechargeListV4: `GET /pay/<method>.svg`
 * draws the method's name on its badge, so seeded channels resolve without a CDN. Unknown methods
 * answer 404: what is drawn comes from the table below, never from the URL.
 */
import type { FastifyInstance } from 'fastify';

/** method → [label, badge colour]. */
export const PAY_ICONS = {
  card: ['Card', '#1f6feb'],
  applepay: ['Apple Pay', '#111111'],
  googlepay: ['Google Pay', '#3c4043'],
  PayPal: ['PayPal', '#003087'],
  usdt: ['USDT', '#26a17b'],
} as const satisfies Record<string, readonly [string, string]>;
export type PayIcon = keyof typeof PAY_ICONS;

const isPayIcon = (key: string): key is PayIcon => Object.hasOwn(PAY_ICONS, key);

export const payIconUrl = (method: PayIcon): string => `/pay/${method}.svg`;

export function payIconSvg(method: PayIcon): string {
  const [label, colour] = PAY_ICONS[method];
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="48" viewBox="0 0 96 48">',
    `<rect x="1" y="1" width="94" height="46" rx="8" fill="${colour}"/>`,
    `<text x="48" y="30" text-anchor="middle" font-family="sans-serif" font-size="15" font-weight="700" fill="#fff">${label}</text>`,
    '</svg>',
  ].join('');
}

export function registerPayIcons(app: FastifyInstance): void {
  app.get<{ Params: { file: string } }>('/pay/:file', async (request, reply) => {
    const key = /^(.+)\.svg$/.exec(request.params.file)?.[1];
    if (!key || !isPayIcon(key)) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply.type('image/svg+xml; charset=utf-8').header('cache-control', 'public, max-age=86400').send(payIconSvg(key));
  });
}
