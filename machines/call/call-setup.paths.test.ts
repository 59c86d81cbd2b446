/**
 * Generated-path tests of an outgoing call's set-up (SPEC §5 call rules, §8 call messages): every
 * path is replayed on the real actor with a manual call API and media (nothing answers until the
 * path says so).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { CallApiError, MediaError } from '../ports/call.port';
import type { CallInfo } from '../ports/call.port';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { callSetupMachine } from './call-setup.machine';
import type { CallSetupInput } from './call-setup.machine';

const info: CallInfo = { channelId: 'ch1', yxAccid: 'yx-host', videoPrice: 48, nickname: 'Sofia' };
const refused = new MediaError('permissionDenied');
const joinFailed = new Error('the media channel refused the join');
const done = (id: string, output?: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error });

const samples: AnyEventObject[] = [
  done('createCall', info),
  done('prepare'), fail('prepare', refused),
  done('join'), fail('join', joinFailed),
];

const inputs: Record<string, CallSetupInput> = {
  'a video call': { beCallUserId: 100001, callType: 0, video: true, account: 'yx-user', idempotencyKey: 'call-key-0123456789' },
  'an audio call': { beCallUserId: 100001, callType: 1, video: false, account: 'yx-user', idempotencyKey: 'call-key-0123456789' },
};

async function replay(input: CallSetupInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const promise = (id: string) => fromPromise(({ input: args }) => pending.add<unknown>(id, [args]));
  const actor = createActor(callSetupMachine.provide({
    actors: { createCall: promise('createCall') as never, prepare: promise('prepare') as never, join: promise('join') as never },
  }), { input, inspect });
  actor.subscribe({ error: () => {} });
  actor.start();
  await flush();
  // Both start at once: the call on the server (with the call's idempotency key) and the own camera (the camera only for a video call).
  expect(pending.argsOf('createCall')).toEqual([[{ beCallUserId: 100001, callType: input.callType, idempotencyKey: input.idempotencyKey }]]);
  expect(pending.argsOf('prepare')).toEqual([[{ video: input.video }]]);

  for (const { event, state } of steps) {
    if (event.type === 'xstate.init') continue;
    const before = actor.getSnapshot();
    const e = event as AnyEventObject;
    const id = event.type.split('.').slice(3).join('.');
    const call = pending.next(id);
    if (event.type.startsWith('xstate.done')) call.resolve(e.output);
    else call.reject(e.error);
    await flush();

    const snapshot = actor.getSnapshot();
    expect(snapshot.status).toBe(state.status);
    if (snapshot.status === 'active') expect(snapshot.value).toEqual(state.value);
    // The channel is joined once the call exists, unless the camera was refused by then: nothing is joined for a call that cannot go on.
    if (event.type === 'xstate.done.actor.createCall') {
      const cameraRefused = before.matches({ media: 'refused' });
      expect(pending.argsOf('join')).toEqual(cameraRefused ? [] : [[{ channelId: 'ch1', account: 'yx-user' }]]);
    }
    if (snapshot.status === 'done') {
      const failures = steps.slice(0, steps.findIndex((s) => s.event === event) + 1)
        .filter((s) => s.event.type === 'xstate.error.actor.prepare' || s.event.type === 'xstate.error.actor.join')
        .map((s) => (s.event as AnyEventObject).error as unknown);
      // The info of the call that exists, and the first thing that failed after (the person is told that one).
      expect(snapshot.output).toEqual({ info, failure: failures[0] ?? null });
    }
  }
  actor.stop();
}

describeGeneratedPaths('call set-up', callSetupMachine, {
  events: samples,
  inputs,
  serializeContext: (c) => [(c as { failure: unknown }).failure !== null],
  minPaths: 5,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('call set-up: createCall refused', () => {
  // No transition takes it (so no generated path does): the set-up itself fails, there being no call to tell the server of.
  it.each([['while the camera opens', false], ['once the camera is refused', true]])('fails the set-up with the refusal, %s', async (_, cameraFirst) => {
    const pending = new PendingCalls();
    const promise = (id: string) => fromPromise(({ input: args }) => pending.add<unknown>(id, [args]));
    const actor = createActor(callSetupMachine.provide({
      actors: { createCall: promise('createCall') as never, prepare: promise('prepare') as never, join: promise('join') as never },
    }), { input: inputs['a video call']! });
    actor.subscribe({ error: () => {} });
    actor.start();
    if (cameraFirst) pending.next('prepare').reject(refused);
    await flush();
    const refusal = new CallApiError('balance', 'diamond.not.enough');
    pending.next('createCall').reject(refusal);
    await flush();
    expect(actor.getSnapshot().status).toBe('error');
    expect(actor.getSnapshot().error).toBe(refusal);
    expect(pending.count('join')).toBe(0);
  });
});
