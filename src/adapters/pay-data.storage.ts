/**
 * The USDT order a person is paying (SPEC §9 pay data), kept in the webview's storage for a
 * reload (machines/ports/pay-data.port.ts); loaded on use, off the first screens.
 */
import type { UsdtOrder } from '../../machines/ports/wallet.port';
import { safeStorage } from './storage';

const payDataKey = (account: string) => `app.payData.${account}`;

/** The USDT order a person is paying (SPEC §9 pay data), kept for a reload; anything unreadable is none. */
export function readPayData(account: string): UsdtOrder | null {
  try {
    const parsed: unknown = JSON.parse(safeStorage('localStorage')?.getItem(payDataKey(account)) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const o = parsed as Record<string, unknown>;
    const texts = ['orderNo', 'address', 'amount', 'chain'].every((k) => typeof o[k] === 'string');
    const times = ['createdAt', 'deadline'].every((k) => Number.isFinite(o[k]));
    return texts && times
      ? { orderNo: o.orderNo as string, address: o.address as string, amount: o.amount as string, chain: o.chain as string, createdAt: o.createdAt as number, deadline: o.deadline as number }
      : null;
  } catch {
    return null;
  }
}

export function writePayData(account: string, order: UsdtOrder): void {
  safeStorage('localStorage')?.setItem(payDataKey(account), JSON.stringify(order));
}

export function clearPayData(account: string): void {
  safeStorage('localStorage')?.removeItem(payDataKey(account));
}

