/** The chat quota port in memory: one day's peers per account (a device's storage). */
import type { ChatQuotaPort } from './chat-quota.port';

export class FakeChatQuotaPort implements ChatQuotaPort {
  private readonly saved = new Map<string, { day: string; peers: readonly string[] }>();

  load(account: string, day: string): readonly string[] {
    const record = this.saved.get(account);
    return record?.day === day ? record.peers : [];
  }

  save(account: string, day: string, peers: readonly string[]): void {
    this.saved.set(account, { day, peers: [...peers] });
  }
}
