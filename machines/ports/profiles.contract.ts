/**
 * The profiles port's contract (SPEC §7 batchQueryYxStat, getCustomerServiceList; §9 lookups in
 * groups of 100), run against the in-memory fake (profiles.fake.test.ts) and the HTTP adapter
 * over the reference server (src/adapters/http/lookups.http.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { perTest, rejectionOf } from './contract.support';
import type { ChatProfile, ProfilesPort } from './profiles.port';

export interface ProfilesContractRig {
  /** The port of a signed-in person. */
  port: ProfilesPort;
  /** At least two accounts the service knows (one a host), with what their profiles must show. */
  known: readonly { account: string; profile: Partial<ChatProfile> }[];
  /** An IM account nobody has. */
  unknownAccount: string;
  /** The signed-in person blocks `account`, as the chats' Block does. */
  block(account: string): void | Promise<void>;
  /** The customer-service IM account the service names. */
  customerService: string;
  /** Takes the service's customer-service account away. */
  noCustomerService(): void | Promise<void>;
  dispose(): void | Promise<void>;
}

export type ProfilesRigFactory = () => ProfilesContractRig | Promise<ProfilesContractRig>;

export function registerProfilesContract(name: string, factory: ProfilesRigFactory): void {
  describe(`[contract] profiles port: ${name}`, () => {
    const t = perTest(factory);

    it('[§7 batchQueryYxStat] answers the known accounts keyed by account, and leaves unknown ones out', async () => {
      const { known, unknownAccount } = t.rig;
      const found = await t.rig.port.lookup([unknownAccount, ...known.map((k) => k.account)]);
      expect(Object.keys(found).sort()).toEqual(known.map((k) => k.account).sort());
      for (const { account, profile } of known) {
        expect(found[account]).toMatchObject(profile);
        expect(found[account]!.blocked).toBeFalsy();
      }
    });

    it('shows whom the signed-in person blocked, and only them', async () => {
      const [first, second] = t.rig.known;
      await t.rig.block(first!.account);
      const found = await t.rig.port.lookup([first!.account, second!.account]);
      expect(found[first!.account]!.blocked).toBe(true);
      expect(found[second!.account]!.blocked).toBeFalsy();
    });

    it('[§9 lookups in groups of 100] answers 100 accounts at once and refuses more', async () => {
      const [first] = t.rig.known;
      const others = Array.from({ length: 99 }, (_, i) => `${t.rig.unknownAccount}${i}`);
      expect(Object.keys(await t.rig.port.lookup([first!.account, ...others]))).toEqual([first!.account]);
      expect(await rejectionOf(t.rig.port.lookup([first!.account, ...others, t.rig.unknownAccount]))).toBeInstanceOf(Error);
    });

    it('[§7 getCustomerServiceList] names the customer-service account; null when the service has none', async () => {
      expect(await t.rig.port.customerService()).toBe(t.rig.customerService);
      await t.rig.noCustomerService();
      expect(await t.rig.port.customerService()).toBeNull();
    });
  });
}
