/**
 * The call-signalling port's contract (SPEC §3 Call enums: signalling actions), run against
 * the in-memory fake (signalling.fake.test.ts) and the local adapter over the reference
 * server's hub (src/adapters/signalling.local.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { perTest, eventually, rejectionOf, settle } from './contract.support';
import { SignalAction, SignalFailure, TEXT_PEER_UNAVAILABLE } from './signalling.port';
import type { SignalEvent, SignallingPort } from './signalling.port';

export interface SignalClient {
  port: SignallingPort;
  account: string;
  token: string;
}

export interface SignallingContractRig {
  /** Two accounts, each with a client that is not logged in yet. */
  a: SignalClient;
  b: SignalClient;
  /** Another client of the same service (a second device). */
  newPort(): SignallingPort;
  /** Cuts the account's link as a network fault would. */
  dropLink(account: string): void | Promise<void>;
  dispose(): void | Promise<void>;
}

export type SignallingRigFactory = () => SignallingContractRig | Promise<SignallingContractRig>;

export function registerSignallingContract(name: string, factory: SignallingRigFactory): void {
  describe(`[contract] signalling port: ${name}`, () => {
    const t = perTest(factory);
    const record = (port: SignallingPort) => t.record<SignalEvent>((l) => port.subscribe(l));
    const login = (c: SignalClient) => c.port.login(c.account, c.token);


    it('refuses a wrong token', async () => {
      expect(await rejectionOf(t.rig.a.port.login(t.rig.a.account, 'wrong-token'))).toBeInstanceOf(Error);
      expect(await rejectionOf(t.rig.a.port.send(t.rig.b.account, { action: SignalAction.videoCall, channelId: 'c' }))).toBeInstanceOf(Error);
    });

    it('says connected once logged in', async () => {
      const atA = record(t.rig.a.port);
      await login(t.rig.a);
      expect(atA.of('connected')).toHaveLength(1);
    });

    it('[§3] delivers a signal to the peer with every field, each with its own id', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atB = record(t.rig.b.port);
      const atA = record(t.rig.a.port);
      const payload = { videoPrice: 60, nickname: 'Sofia' };
      const call = await t.rig.a.port.send(t.rig.b.account, { action: SignalAction.videoCall, channelId: 'ch-9', payload });
      expect(call).toMatchObject({ action: SignalAction.videoCall, channelId: 'ch-9', from: t.rig.a.account, to: t.rig.b.account, payload });
      expect(typeof call.id).toBe('string');
      expect(typeof call.time).toBe('number');
      await eventually(() => expect(atB.of('signal').map((e) => e.signal)).toEqual([call]));

      const accept = await t.rig.b.port.send(t.rig.a.account, { action: SignalAction.accept, channelId: 'ch-9' });
      await eventually(() => expect(atA.of('signal').map((e) => e.signal)).toEqual([accept]));
      const hangup = await t.rig.a.port.send(t.rig.b.account, { action: SignalAction.hangup, channelId: 'ch-9' });
      expect(new Set([call.id, accept.id, hangup.id]).size).toBe(3);
      await eventually(() => expect(atB.of('signal').map((e) => e.signal.action)).toEqual([SignalAction.videoCall, SignalAction.hangup]));
    });

    it('refuses a signal to a peer that is not connected: SPEC §8 \'the user is currently unavaliable\'', async () => {
      await login(t.rig.a);
      const unavailable = { kind: 'unavailable', message: TEXT_PEER_UNAVAILABLE };
      expect(await rejectionOf(t.rig.a.port.send(t.rig.b.account, { action: SignalAction.videoCall, channelId: 'c' })))
        .toMatchObject(unavailable);
      await login(t.rig.b);
      await t.rig.b.port.logout();
      const refusal = await rejectionOf(t.rig.a.port.send(t.rig.b.account, { action: SignalAction.cancel, channelId: 'c' }));
      expect(refusal).toBeInstanceOf(SignalFailure);
      expect(refusal).toMatchObject(unavailable);
    });

    it('reports a dropped link; a new login works again', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atA = record(t.rig.a.port);
      await t.rig.dropLink(t.rig.a.account);
      await eventually(() => expect(atA.of('disconnected')).toHaveLength(1));
      expect(await rejectionOf(t.rig.a.port.send(t.rig.b.account, { action: SignalAction.videoCall, channelId: 'c' })))
        .toMatchObject({ kind: 'disconnected' });
      await login(t.rig.a);
      expect(atA.of('connected')).toHaveLength(1);
      await expect(t.rig.a.port.send(t.rig.b.account, { action: SignalAction.videoCall, channelId: 'c' })).resolves.toMatchObject({ to: t.rig.b.account });
    });

    it('a second login of the same account drops the first; signals go to the second', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atFirst = record(t.rig.a.port);
      const second = t.rig.newPort();
      const atSecond = record(second);
      await second.login(t.rig.a.account, t.rig.a.token);
      await eventually(() => expect(atFirst.of('disconnected')).toHaveLength(1));
      const signal = await t.rig.b.port.send(t.rig.a.account, { action: SignalAction.audioCall, channelId: 'ch-2' });
      await eventually(() => expect(atSecond.of('signal').map((e) => e.signal.id)).toEqual([signal.id]));
      await settle();
      expect(atFirst.of('signal')).toEqual([]);
    });

    it('logout is quiet: no disconnected event', async () => {
      await login(t.rig.a);
      const atA = record(t.rig.a.port);
      await t.rig.a.port.logout();
      await settle();
      expect(atA.of('disconnected')).toEqual([]);
    });
  });
}
