/**
 * The chat quota port's contract (SPEC §4 Recharge: the non-paid user quota, per local day,
 * kept on the device per account), run against the in-memory fake (chat-quota.fake.test.ts)
 * and the storage adapter over a browser's localStorage (src/adapters/storage.chat-quota.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { perTest } from './contract.support';
import type { ChatQuotaPort } from './chat-quota.port';

export interface ChatQuotaContractRig {
  port: ChatQuotaPort;
  /** A port over the same storage, as after a reload of the page. */
  reopen(): ChatQuotaPort;
  dispose(): void | Promise<void>;
}

export type ChatQuotaRigFactory = () => ChatQuotaContractRig | Promise<ChatQuotaContractRig>;

export function registerChatQuotaContract(name: string, factory: ChatQuotaRigFactory): void {
  describe(`[contract] chat quota port: ${name}`, () => {
    const t = perTest(factory);

    it('[§4 Recharge] loads the peers saved for the day, in order; a save replaces the one before', () => {
      expect(t.rig.port.load('alice', '2026-11-28')).toEqual([]);
      t.rig.port.save('alice', '2026-11-28', ['yx-b']);
      t.rig.port.save('alice', '2026-11-28', ['yx-b', 'yx-a']);
      expect(t.rig.port.load('alice', '2026-11-28')).toEqual(['yx-b', 'yx-a']);
    });

    it('[§4 Recharge] another day starts empty, and saving it forgets the day before', () => {
      t.rig.port.save('alice', '2026-11-28', ['yx-b']);
      expect(t.rig.port.load('alice', '2026-11-29')).toEqual([]);
      t.rig.port.save('alice', '2026-11-29', ['yx-c']);
      expect(t.rig.port.load('alice', '2026-11-29')).toEqual(['yx-c']);
      expect(t.rig.port.load('alice', '2026-11-28')).toEqual([]);
    });

    it('keeps each account apart, and keeps what was saved past a reload (not the caller\'s array as it changes later)', () => {
      const peers = ['yx-b'];
      t.rig.port.save('alice', '2026-11-28', peers);
      t.rig.port.save('bob', '2026-11-28', ['yx-c', 'yx-d']);
      peers.push('yx-z');
      const reopened = t.rig.reopen();
      expect(reopened.load('alice', '2026-11-28')).toEqual(['yx-b']);
      expect(reopened.load('bob', '2026-11-28')).toEqual(['yx-c', 'yx-d']);
      expect(reopened.load('carol', '2026-11-28')).toEqual([]);
    });
  });
}
