/**
 * Where the USDT order being paid is kept between runs of the app (SPEC §9 pay data, cleared
 * an hour after the order): kept when the order is made, forgotten when it ends, read at start
 * so that a reload picks the countdown up. The app keeps it in the webview's storage, per person.
 */
import type { UsdtOrder } from './wallet.port';

export interface PayDataPort {
  /** The person's kept order, or null (none, or not readable). Asynchronous: the storage's code loads on use. */
  read(account: string): Promise<UsdtOrder | null>;
  write(account: string, order: UsdtOrder): Promise<void>;
  clear(account: string): Promise<void>;
}
