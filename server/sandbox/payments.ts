/**
 * The payment sandbox (development only: in production a real provider confirms payments): it
 * stands in for the card, PayPal and USDT providers.
 *
 * - `GET /sandbox/pay/<orderCode>` is the provider's page of an order: what is paid for, and
 *   for a card or PayPal order Pay, Decline and Cancel; for a USDT order the address, amount and
 *   chain it is paid to, and Pay and Let it expire (as a wallet that pays, or nobody paying
 *   until the deadline). Each comes back into the app at the order's return path with
 *   `orderCode` and `result` (paid, failed, cancelled, expired), as a provider's redirect would.
 *   An order past its deadline reads as expired (wallet.orders.ts `current`).
 * - `POST /sandbox/pay/<orderCode>/<pay|fail|expire>` is the provider's confirmation: pay credits
 *   the order once, however often or however concurrently it comes (wallet.orders.ts); fail
 *   declines it; expire lets a USDT order run out. Each answers what it did (JSON), or with
 *   `?return=1` (the page's buttons) redirects into the app.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database';
import type { Orders } from '../api/wallet.orders';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Outcome = 'pay' | 'fail' | 'cancel' | 'expire';
const RESULT: Record<Outcome, string> = { pay: 'paid', fail: 'failed', cancel: 'cancelled', expire: 'expired' };
const isOutcome = (value: string): value is Outcome => Object.hasOwn(RESULT, value);

export const sandboxPayments: FastifyPluginAsync<{ orders: Orders; db: Db }> = async (app, { orders, db }) => {
  // The page's buttons post an empty form.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  const packageOf = db.prepare<[number], { price: string; diamond_num: number }>('SELECT price, diamond_num FROM recharge_packages WHERE id = ?');

  app.get<{ Params: { code: string } }>('/sandbox/pay/:code', async (request, reply) => {
    const order = orders.current(request.params.code);
    if (!order) return reply.code(404).type('text/plain; charset=utf-8').send('No such order');
    const pkg = packageOf.get(order.package_id)!;
    const code = escape(order.order_code);
    const button = (outcome: Outcome, label: string) =>
      `<form method="post" action="/sandbox/pay/${code}/${outcome}?return=1"><button type="submit">${label}</button></form>`;
    const usdt = order.pay_method_type === 'usdt';
    const buttons = usdt ? `${button('pay', 'Pay')}${button('expire', 'Let it expire')}` : `${button('pay', 'Pay')}${button('fail', 'Decline')}${button('cancel', 'Cancel')}`;
    const body = order.status === 'pending' ? buttons : `<p role="status">This order is ${escape(order.status)}.</p>`;
    const payTo = usdt
      ? `<dl><dt>Address</dt><dd><code>${escape(order.usdt_address ?? '')}</code></dd><dt>Amount</dt><dd>${escape(order.usdt_amount ?? '')} USDT</dd>`
        + `<dt>Chain</dt><dd>${escape(order.chain_name ?? '')}</dd></dl>`
      : '';
    return reply.type('text/html; charset=utf-8').send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
      + `<title>Payment sandbox</title><style>body{font:16px sans-serif;margin:24px}button{min-height:44px;min-width:120px;margin:6px 0}</style></head>`
      + `<body><h1>Payment sandbox</h1><p>Order ${code}: ${escape(order.pay_method_type)}, US$ ${escape(pkg.price)} for ${pkg.diamond_num} diamonds.</p>${payTo}${body}</body></html>`,
    );
  });

  app.post<{ Params: { code: string; outcome: string }; Querystring: { return?: string } }>('/sandbox/pay/:code/:outcome', async (request, reply) => {
    const { code, outcome } = request.params;
    const order = orders.current(code);
    if (!order || !isOutcome(outcome)) return reply.code(404).send({ error: 'No such order or outcome' });
    const answer = outcome === 'pay' ? { credited: orders.credit(code) } : { ended: orders.end(code, outcome === 'expire' ? 'expired' : 'failed') };
    if (request.query.return !== '1') return answer;
    const back = `${order.return_path}${order.return_path.includes('?') ? '&' : '?'}${new URLSearchParams({ orderCode: code, result: RESULT[outcome] })}`;
    return reply.redirect(back, 303);
  });
};
