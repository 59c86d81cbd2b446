/** The USDT payment countdown composed with the clock and the order query (SPEC §7 /api/fuse/queryUsdtOrderStat). */
import { fromCallback, fromPromise } from 'xstate';
import type { ClockPort } from '../ports/clock.port';
import { paymentCountdownMachine } from './payment-countdown.machine';
import type { PaymentCountdownEvent, TickerEvent } from './payment-countdown.machine';

export interface PaymentCountdownPorts {
  clock: ClockPort;
  /** Whether the order was paid. */
  queryOrder(orderNo: string): Promise<boolean>;
}

/** The clock's now at once, then every second: a timer that fires late only makes the next reading later. */
export function clockTicker(clock: ClockPort) {
  return fromCallback<TickerEvent>(({ sendBack, receive }) => {
    let timer: unknown = null;
    const tick = () => {
      if (timer !== null) clock.clearTimeout(timer);
      sendBack({ type: 'countdown.tick', now: clock.now() } satisfies PaymentCountdownEvent);
      timer = clock.setTimeout(tick, 1000);
    };
    receive(tick);
    tick();
    return () => { if (timer !== null) clock.clearTimeout(timer); };
  });
}

export function composePaymentCountdown(ports: PaymentCountdownPorts) {
  return paymentCountdownMachine.provide({
    actors: {
      ticker: clockTicker(ports.clock),
      query: fromPromise<boolean, { orderNo: string }>(({ input }) => ports.queryOrder(input.orderNo)),
    },
  });
}
