/**
 * The payment sandbox (development only: in production a real provider confirms payments): it
 * stands in for the card, PayPal and USDT providers' confirmations of an order. `POST
 * /sandbox/pay/<orderCode>/pay` confirms the payment (the order is credited once, however often
 * or however concurrently this comes: wallet.orders.ts), `/fail` declines it and `/expire` lets
 * a USDT order run out; each answers what it did.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Orders } from '../api/wallet.orders';

export const sandboxPayments: FastifyPluginAsync<{ orders: Orders }> = async (app, { orders }) => {
  app.post<{ Params: { code: string; outcome: string } }>('/sandbox/pay/:code/:outcome', async (request, reply) => {
    const { code, outcome } = request.params;
    if (!orders.find(code)) return reply.code(404).send({ error: 'No such order' });
    switch (outcome) {
      case 'pay': return { credited: orders.credit(code) };
      case 'fail': return { ended: orders.end(code, 'failed') };
      case 'expire': return { ended: orders.end(code, 'expired') };
      default: return reply.code(404).send({ error: 'No such outcome' });
    }
  });
};
