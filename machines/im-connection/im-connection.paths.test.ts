/**
 * Generated-path tests of imConnection (SPEC §4 Message service, §8 codes): every path
 * is replayed on the real actor over a manual-mode fake IM port and a simulated clock.
 */
import { expect } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { FakeImPort } from '../ports/im.fake';
import { ImCode, ImError } from '../ports/im.port';
import type { ImMessage } from '../ports/im.port';
import { PendingCalls } from '../ports/pending';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { composeImConnection } from './im-connection.actors';
import { TEXT_KICKED, TEXT_NOT_CONNECTED, imConnectionMachine, offlineRetryDelayMs } from './im-connection.machine';
import type { ImConnectionInput } from './im-connection.machine';

const message: ImMessage = {
  idClient: 'c9', idServer: 's1', from: 'peer', to: 'me', sessionId: 'peer', scene: 'p2p', flow: 'in',
  type: 'text', text: 'hi', time: 1, status: 'sent',
};

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.login' },
  { type: 'xstate.error.actor.login', error: new ImError(ImCode.tokenExpired) },
  { type: 'xstate.error.actor.login', error: new ImError(ImCode.linkLost) },
  { type: 'xstate.error.actor.login', error: new ImError(302) },
  { type: 'xstate.error.actor.login', error: new ImError(ImCode.unreachable) },
  { type: 'xstate.done.actor.refreshToken', output: 'token-2' },
  { type: 'xstate.error.actor.refreshToken', error: new Error('no token') },
  { type: afterEvent('loginRetryDelay', 'imConnection.waitingToRetry') },
  { type: afterEvent('offlineRetryDelay', 'imConnection.offline') },
  { type: afterEvent('heartbeat', 'imConnection.connected.idle') },
  { type: 'xstate.done.actor.ping' },
  { type: 'xstate.error.actor.ping', error: new ImError(ImCode.linkLost) },
  { type: 'xstate.done.actor.logout' },
  { type: 'xstate.error.actor.logout', error: new Error('offline') },
  { type: 'im.event', event: { type: 'kicked' } },
  { type: 'im.event', event: { type: 'disconnected', code: ImCode.linkLost } },
  { type: 'im.event', event: { type: 'message', message } },
  { type: 'im.event', event: { type: 'unread', total: 3 } },
  { type: 'im.sendText', to: 'peer', text: 'hello', idClient: 'c1' },
  { type: 'im.sent', idClient: 'c1', message: { ...message, idClient: 'c1', flow: 'out' } },
  { type: 'im.sendFailed', idClient: 'c1', reason: 'refused', text: 'refused' },
  { type: 'app.hidden' },
  { type: 'app.visible' },
];

/** The states a login is under way in: a send made there waits for its outcome. */
const LOGGING_IN = ['loggingIn', 'waitingToRetry', 'refreshingToken'] as const;
const isLoggingIn = (s: AnyMachineSnapshot) => LOGGING_IN.some((key) => s.matches(key));
const heldIds = (s: AnyMachineSnapshot) => (s.context.held as { idClient: string }[]).map((r) => r.idClient);

const inputs: Record<string, ImConnectionInput> = {
  host: { account: 'me', token: 'token-1', disconnectWhenHidden: true },
  user: { account: 'me', token: 'token-1', disconnectWhenHidden: false },
};


async function replay(input: ImConnectionInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const im = new FakeImPort(undefined, 'manual');
  const refresh = new PendingCalls();
  const clock = new SimulatedClock();
  const emitted: AnyEventObject[] = [];
  const actor = createActor(composeImConnection({ im, refreshImToken: () => refresh.add('refreshToken', []) }), {
    input, clock, inspect,
  });
  actor.on('*', (e) => emitted.push(e));
  const toParent = emitted; // what the root actor receives when it owns this machine
  actor.start();
  await flush();

  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    const connectionsBefore = emitted.filter((e) => e.type === 'im.connected').length;
    const emittedBefore = emitted.length;
    const portSendsBefore = im.pending.count('sendText');
    const [, kind, , id] = event.type.split('.');
    const payload = event as AnyEventObject;
    if (event.type.startsWith('xstate.after.')) {
      // The exact wait of SPEC §9 / §4: one millisecond short of it nothing has happened yet.
      const due = event.type.includes('heartbeat') ? 10_000
        : event.type.includes('offline') ? offlineRetryDelayMs(before.context.offlineTries)
          : 1000 * before.context.attempts;
      clock.increment(due - 1);
      await flush();
      expect(actor.getSnapshot().value).toEqual(before.value);
      clock.increment(1);
    } else if (kind === 'done' || kind === 'error') {
      const call = id === 'refreshToken' ? refresh.next('refreshToken') : im.pending.next(id!);
      if (kind === 'done') call.resolve(payload.output);
      else call.reject(payload.error);
    } else if (event.type === 'im.event') {
      im.emit(payload.event);
    } else if (event.type === 'im.sent') {
      im.pending.next('sendText').resolve(payload.message);
    } else if (event.type === 'im.sendFailed') {
      im.pending.next('sendText').reject(new ImError(ImCode.refused, 'refused'));
    } else {
      actor.send(event as never);
    }
    await flush();

    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(snapshot.context.attempts).toBe(state.context.attempts);
    expect(Math.min(snapshot.context.offlineTries, 2)).toBe(Math.min(state.context.offlineTries, 2));
    expect(heldIds(snapshot)).toEqual(heldIds(state));
    expect(snapshot.context.sending).toEqual(state.context.sending);
    // Out of reach never ends the session; only refusals count as attempts.
    if (snapshot.matches('offline')) expect(snapshot.context.attempts).toBe(0);
    // Invariants.
    expect(snapshot.context.attempts).toBeLessThanOrEqual(3);
    if (snapshot.status === 'active') expect(im.listenerCount).toBe(1);
    if (snapshot.matches('kicked')) expect(toParent.at(-1)).toEqual({ type: 'im.sessionEnded', text: TEXT_KICKED });
    if (snapshot.matches('failed')) expect(toParent.at(-1)).toEqual({ type: 'im.sessionEnded', text: null });
    if (snapshot.matches('hidden')) expect(input.disconnectWhenHidden).toBe(true);
    const news = emitted.slice(emittedBefore);
    const known = [...heldIds(before), ...before.context.sending as string[]];
    if (event.type === 'im.sendText') {
      const idClient = String(payload.idClient);
      // A double tap is ignored wherever a login is under way or done (SPEC §4).
      if ((isLoggingIn(before) || before.matches('connected')) && known.includes(idClient)) {
        expect(news).toEqual([{ type: 'sendIgnored', idClient }]);
      } else if (isLoggingIn(before)) {
        // Held until the login's outcome: nothing reported, nothing sent yet.
        expect(news).toEqual([]);
        expect(heldIds(snapshot)).toEqual([...heldIds(before), idClient]);
      } else if (before.matches('connected')) {
        expect(im.pending.count('sendText')).toBe(portSendsBefore + 1);
      } else {
        // No login under way (offline, logging out, hidden): SPEC §5, it fails at once.
        expect(news).toEqual([{ type: 'sendFailed', idClient, reason: 'notConnected', text: TEXT_NOT_CONNECTED }]);
      }
    }
    if (!isLoggingIn(snapshot)) expect(heldIds(snapshot)).toEqual([]);
    if (heldIds(before).length > 0 && !isLoggingIn(snapshot)) {
      if (snapshot.matches('connected')) {
        // Connected: each held send starts as one made now, in order.
        expect(im.pending.argsOf('sendText').slice(portSendsBefore).map((a) => (a[2] as { idClient: string }).idClient))
          .toEqual(heldIds(before));
        expect(snapshot.context.sending).toEqual([...before.context.sending as string[], ...heldIds(before)]);
      } else {
        // The login ended elsewhere: each held send fails with the §5 text, before any end of the session.
        expect(news.filter((e) => e.type === 'sendFailed')).toEqual(
          heldIds(before).map((idClient) => ({ type: 'sendFailed', idClient, reason: 'notConnected', text: TEXT_NOT_CONNECTED })),
        );
        expect(im.pending.count('sendText')).toBe(portSendsBefore);
      }
    }
    if (event.type === 'im.sendFailed') expect(emitted.at(-1)).toMatchObject({ type: 'sendFailed', reason: 'refused' });
    // Every (re)connection is reported once, so lists kept elsewhere load again.
    const connections = emitted.filter((e) => e.type === 'im.connected').length;
    if (snapshot.matches('connected') && !before.matches('connected')) expect(connections).toBe(connectionsBefore + 1);
    else expect(connections).toBe(connectionsBefore);
  }
  // Link events are not reported as conversation changes (no conversation event was sampled).
  expect(emitted.filter((e) => e.type === 'im.conversationChanged')).toEqual([]);
  // Messages reach the parent once, whatever the path.
  const ids = toParent.filter((e) => e.type === 'im.message').map((e) => (e.message as ImMessage).idServer);
  expect(new Set(ids).size).toBe(ids.length);
  actor.stop();
  expect(im.listenerCount).toBe(0);
}

describeGeneratedPaths('imConnection', imConnectionMachine, {
  events: samples,
  inputs,
  serializeContext: (c) => {
    const ctx = c as { attempts: number; offlineTries: number; appVisible: boolean; sending: string[]; seen: string[]; held: unknown[] };
    return [ctx.attempts, Math.min(ctx.offlineTries, 2), ctx.appVisible, ctx.sending.length, ctx.seen.length, ctx.held.length];
  },
  minPaths: 10,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});
