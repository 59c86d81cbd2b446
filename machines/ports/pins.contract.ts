/**
 * The pins port's contract (SPEC §6 VIP pins, §3 Chat session "up to 5 pinned", kept on the
 * device per account), run against the in-memory fake (pins.fake.test.ts) and the storage
 * adapter over a browser's localStorage (src/adapters/storage.pins.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { perTest } from './contract.support';
import type { PinsPort } from './pins.port';

export interface PinsContractRig {
  port: PinsPort;
  /** A port over the same storage, as after a reload of the page. */
  reopen(): PinsPort;
  dispose(): void | Promise<void>;
}

export type PinsRigFactory = () => PinsContractRig | Promise<PinsContractRig>;

export function registerPinsContract(name: string, factory: PinsRigFactory): void {
  describe(`[contract] pins port: ${name}`, () => {
    const t = perTest(factory);

    it('[§6 VIP pins] loads what the account saved, in order; a save replaces the one before', () => {
      t.rig.port.save('alice', ['p2p-b', 'p2p-a', 'team-c']);
      expect(t.rig.port.load('alice')).toEqual(['p2p-b', 'p2p-a', 'team-c']);
      t.rig.port.save('alice', ['p2p-a']);
      expect(t.rig.port.load('alice')).toEqual(['p2p-a']);
      t.rig.port.save('alice', []);
      expect(t.rig.port.load('alice')).toEqual([]);
    });

    it('keeps each account\'s pins apart; an account that saved none has none', () => {
      t.rig.port.save('alice', ['p2p-b']);
      t.rig.port.save('bob', ['p2p-c', 'p2p-d']);
      expect(t.rig.port.load('alice')).toEqual(['p2p-b']);
      expect(t.rig.port.load('bob')).toEqual(['p2p-c', 'p2p-d']);
      expect(t.rig.port.load('carol')).toEqual([]);
    });

    it('keeps the pins past a reload, and what was saved, not the caller\'s array as it changes later', () => {
      const ids = ['p2p-b', 'p2p-a'];
      t.rig.port.save('alice', ids);
      ids.push('p2p-z');
      expect(t.rig.reopen().load('alice')).toEqual(['p2p-b', 'p2p-a']);
    });
  });
}
