/**
 * The presence port's contract (SPEC §4 Presence, §9), run against the in-memory fake
 * (presence.fake.test.ts) and the local adapter over the reference server's hub
 * (src/adapters/presence.local.test.ts). The server side is observed through the rig's
 * `status()`: what the service stored for the signed-in user.
 */
import { describe, expect, it } from 'vitest';
import { perTest, eventually, rejectionOf, settle, sleep } from './contract.support';
import { PresenceCode } from './presence.port';
import type { PresenceEvent, PresencePort } from './presence.port';

export interface PresenceContractRig {
  /** A port for the signed-in user, not open yet. */
  port: PresencePort;
  /** Another port of the same user (a second tab, or the same tab after a reload). */
  newPort(): PresencePort;
  /** A port whose session token the service refuses. */
  badPort(): PresencePort;
  /** The status the service holds for the user; undefined before the first code. */
  status(): PresenceCode | undefined | Promise<PresenceCode | undefined>;
  /** Cuts the user's presence link as a network fault would. */
  dropLink(): void | Promise<void>;
  /** How long the service waits after a drop before it marks the user offline (kept short in tests). */
  graceMs: number;
  dispose(): void | Promise<void>;
}

export type PresenceRigFactory = () => PresenceContractRig | Promise<PresenceContractRig>;

export function registerPresenceContract(name: string, factory: PresenceRigFactory): void {
  describe(`[contract] presence port: ${name}`, () => {
    const t = perTest(factory);
    const record = (port: PresencePort) => t.record<PresenceEvent>((l) => port.subscribe(l));
    const expectStatus = async (code: PresenceCode | undefined) => expect(await t.rig.status()).toBe(code);


    it('[§4] acknowledges every status code and keeps the latest as the user\'s status', async () => {
      await t.rig.port.open();
      for (const code of [PresenceCode.foreground, PresenceCode.calling, PresenceCode.callEnd, PresenceCode.background, PresenceCode.offline]) {
        await t.rig.port.send(code);
        await expectStatus(code);
      }
    });

    it('refuses to open with a session token the service does not know', async () => {
      expect(await rejectionOf(t.rig.badPort().open())).toBeInstanceOf(Error);
    });

    it('refuses a code before open and after close', async () => {
      expect(await rejectionOf(t.rig.port.send(PresenceCode.foreground))).toBeInstanceOf(Error);
      await t.rig.port.open();
      t.rig.port.close();
      expect(await rejectionOf(t.rig.port.send(PresenceCode.foreground))).toBeInstanceOf(Error);
    });

    it('[§4 logout] offline then close: offline at once, and no closed event', async () => {
      const events = record(t.rig.port);
      await t.rig.port.open();
      await t.rig.port.send(PresenceCode.foreground);
      await t.rig.port.send(PresenceCode.offline);
      t.rig.port.close();
      await expectStatus(PresenceCode.offline);
      await settle();
      expect(events.events).toEqual([]);
    });

    it('a dropped link says closed; the user goes offline once the grace period has passed', async () => {
      const events = record(t.rig.port);
      await t.rig.port.open();
      await t.rig.port.send(PresenceCode.foreground);
      await t.rig.dropLink();
      await eventually(() => expect(events.of('closed')).toHaveLength(1));
      await expectStatus(PresenceCode.foreground);
      await eventually(() => expectStatus(PresenceCode.offline), t.rig.graceMs + 3000);
    });

    it('a close without offline also ends in offline after the grace period', async () => {
      await t.rig.port.open();
      await t.rig.port.send(PresenceCode.background);
      t.rig.port.close();
      await eventually(() => expectStatus(PresenceCode.offline), t.rig.graceMs + 3000);
    });

    it('coming back within the grace period keeps the user online', async () => {
      await t.rig.port.open();
      await t.rig.port.send(PresenceCode.foreground);
      await t.rig.dropLink();
      const again = t.rig.newPort();
      await again.open();
      await again.send(PresenceCode.foreground);
      await sleep(t.rig.graceMs + 100);
      await expectStatus(PresenceCode.foreground);
      again.close();
    });
  });
}
