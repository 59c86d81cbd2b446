/**
 * Generated-path tests of a call's ending (SPEC §4 Call status, §9 not-answered report 30): for
 * every way of telling the peer, every path is replayed on the real actor with manual signalling,
 * server and media (nothing answers until the path says so).
 */
import { expect } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { SignalAction } from '../ports/signalling.port';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { callEndMachine } from './call-end.machine';
import type { CallEndInput, Farewell } from './call-end.machine';

const done = (id: string): AnyEventObject => ({ type: `xstate.done.actor.${id}` });
const fail = (id: string): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error: new Error('gone') });
const IDS = ['farewellSignal', 'rejectSignal', 'failSignal', 'cleanup'];

const input = (tell: Farewell, channelToTell: string | null = 'ch1', reason = 2): CallEndInput =>
  ({ tell, peer: 'yx-peer', channelId: 'ch1', channelToTell, reason });
const inputs: Record<string, CallEndInput> = {
  'cancelled while ringing': input('cancel'),
  'not answered': input('notAnswered'),
  'hung up': input('hangup', 'ch1', 1),
  'hung up for a weak network here': input('hangup', 'ch1', 6),
  'refused by the callee': input('reject'),
  'not taken (failed here)': input('fail'),
  'ended by the peer': input('none'),
  'an incoming ring that ran out': input('none', null),
};

/** What each way of ending tells the peer, by the actor that tells it and what it is given. */
const told: Record<Farewell, [string, unknown] | null> = {
  cancel: ['farewellSignal', { to: 'yx-peer', action: SignalAction.cancel, channelId: 'ch1' }],
  notAnswered: ['farewellSignal', { to: 'yx-peer', action: SignalAction.cancel, channelId: 'ch1', payload: { notAnswered: 30 } }],
  hangup: ['farewellSignal', { to: 'yx-peer', action: SignalAction.hangup, channelId: 'ch1' }],
  reject: ['rejectSignal', { peer: 'yx-peer', channelId: 'ch1' }],
  fail: ['failSignal', { peer: 'yx-peer', channelId: 'ch1' }],
  none: null,
};

async function replay(run: CallEndInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const promise = (id: string) => fromPromise(({ input: args, self }) => pending.add<unknown>(self.id || id, [args]));
  const actor = createActor(callEndMachine.provide({
    actors: { signal: promise('signal') as never, reject: promise('reject') as never, fail: promise('fail') as never, cleanup: promise('cleanup') as never },
  }), { input: run, inspect });
  actor.start();
  await flush();
  // The peer is told first, as the end asks, and only so; with nothing to tell, the cleanup starts at once.
  // A hang-up for this side's weak network says so (the server records the reason of the first end it hears).
  const first = run.tell === 'hangup' && run.reason === 6
    ? ['farewellSignal', { to: 'yx-peer', action: SignalAction.hangup, channelId: 'ch1', payload: { reason: 6 } }] as const
    : told[run.tell];
  for (const id of IDS.slice(0, 3)) expect(pending.argsOf(id)).toEqual(first?.[0] === id ? [[first[1]]] : []);
  expect(pending.count('cleanup')).toBe(first ? 0 : 1);

  for (const { event, state } of steps) {
    if (event.type === 'xstate.init') continue;
    const id = event.type.split('.').slice(3).join('.');
    const call = pending.next(id);
    if (event.type.startsWith('xstate.done')) call.resolve(undefined);
    else call.reject((event as AnyEventObject).error);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    // Told or not, the media is left and the server told of the channel it should hear of.
    if (id !== 'cleanup') expect(pending.argsOf('cleanup')).toEqual([[{ channelId: run.channelToTell, reason: run.reason }]]);
    // The ending ends either way.
    if (id === 'cleanup') expect(snapshot.status).toBe('done');
  }
  actor.stop();
}

describeGeneratedPaths('call ending', callEndMachine, {
  events: IDS.flatMap((id) => [done(id), fail(id)]),
  inputs,
  replay: (path, { input: run, inspect }) => replay(run, path.steps, inspect),
});
