/**
 * The settings port's contract (SPEC §7 getConfigByKey `max_no_use_app_reminder_time`, §4 Idle
 * host, §9 idle-offline reminder default 1 minute), run against the in-memory fake
 * (settings.fake.test.ts) and the HTTP adapter over the reference server
 * (src/adapters/http/lookups.http.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { perTest, rejectionOf } from './contract.support';
import type { SettingsPort } from './settings.port';

export interface SettingsContractRig {
  /** The port of a signed-in person. */
  port: SettingsPort;
  /** Stores the server's `max_no_use_app_reminder_time` as text, or takes it away (undefined). */
  store(value: string | undefined): void | Promise<void>;
  /** A port whose lookups the server refuses (no session). */
  refusedPort(): SettingsPort;
  dispose(): void | Promise<void>;
}

export type SettingsRigFactory = () => SettingsContractRig | Promise<SettingsContractRig>;

/** What the idle host can use (idle-host.machine.ts): a positive, finite number of minutes. */
const usable = (minutes: number | undefined) => minutes !== undefined && Number.isFinite(minutes) && minutes > 0;

export function registerSettingsContract(name: string, factory: SettingsRigFactory): void {
  describe(`[contract] settings port: ${name}`, () => {
    const t = perTest(factory);

    it('[§7 getConfigByKey max_no_use_app_reminder_time] answers the server\'s minutes as a number', async () => {
      await t.rig.store('3');
      expect(await t.rig.port.idleMinutes()).toBe(3);
    });

    it('asks the server at every call: a changed setting is answered the next time', async () => {
      await t.rig.store('2');
      expect(await t.rig.port.idleMinutes()).toBe(2);
      await t.rig.store('15');
      expect(await t.rig.port.idleMinutes()).toBe(15);
    });

    it('[§9 default 1 minute] a missing or unreadable setting answers nothing usable, so the idle host keeps its default', async () => {
      for (const value of [undefined, 'soon', '']) {
        await t.rig.store(value);
        const minutes = await t.rig.port.idleMinutes().catch(() => undefined);
        expect(usable(minutes)).toBe(false);
      }
    });

    it('a lookup the server refuses rejects', async () => {
      expect(await rejectionOf(t.rig.refusedPort().idleMinutes())).toBeInstanceOf(Error);
    });
  });
}
