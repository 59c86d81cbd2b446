/**
 * The seconds left to pay a USDT order (SPEC §4 Crypto payment `suspendNum`), from the order's
 * deadline and the clock's time: a leaf, so that a screen's selectors read it without the machine.
 */
import type { UsdtOrder } from '../ports/wallet.port';

/** Seconds left to pay, never below 0. */
export const suspendNumOf = (c: { order: Pick<UsdtOrder, 'deadline'>; now: number }): number =>
  Math.max(0, Math.ceil((c.order.deadline - c.now) / 1000));
