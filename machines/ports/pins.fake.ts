/** The pins port in memory: what was saved for an account is loaded back (a device's storage). */
import type { PinsPort } from './pins.port';

export class FakePinsPort implements PinsPort {
  private readonly saved = new Map<string, readonly string[]>();

  load(account: string): readonly string[] {
    return this.saved.get(account) ?? [];
  }

  save(account: string, ids: readonly string[]): void {
    this.saved.set(account, [...ids]);
  }
}
