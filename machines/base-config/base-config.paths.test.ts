/**
 * Generated-path tests of the base config (SPEC §7 "retried up to 3 times" "or by app id", §8
 * "Base config failure throws after 3 retries"), for the session and by app id, replayed with
 * manual-mode loaders and a simulated clock.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import {
  FIRST_RETRY_DELAY_MS, MAX_RETRIES, REACH_DELAY_MS, ServerUnreachable, TEXT_BASE_CONFIG_FAILED, baseConfigMachine, hostMayCall,
} from './base-config.machine';
import type { AppSettings, BaseConfigInput, BaseConfigSource } from './base-config.machine';
import { selectBaseConfigError, selectBaseConfigPhase, selectSettings } from './base-config.selectors';

const settings: AppSettings = {
  businessEnabled: true, nonPaidUserCount: 3, translator: { key: 'k', region: 'local' },
  hostCallLevels: [1, 2, 3], primeHostCanCall: true, idleReminderMinutes: 1,
};

/** Both loaders answer through `pending` as 'load', each saying which it is ('session' or 'appId'). */
function manual() {
  const pending = new PendingCalls();
  const logic = baseConfigMachine.provide({
    actors: {
      loadForSession: fromPromise<AppSettings, void>(() => pending.add('load', ['session'])),
      loadByAppId: fromPromise<AppSettings, void>(() => pending.add('load', ['appId'])),
    },
  });
  return { pending, logic };
}

const SESSION: BaseConfigInput = { source: 'session' };
const BY_APP_ID: BaseConfigInput = { source: 'appId' };

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.load', output: settings },
  { type: 'xstate.error.actor.load', error: new Error('Server Failure') },
  { type: 'xstate.error.actor.load', error: new ServerUnreachable('Network Connection Failure') },
  { type: afterEvent('retryDelay', 'baseConfig.waiting') },
  { type: afterEvent('reachDelay', 'baseConfig.waitingForServer') },
  { type: 'baseConfig.retry' },
];

async function replay(
  steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], input: BaseConfigInput, inspect: InspectFn,
) {
  const { pending, logic } = manual();
  const clock = new SimulatedClock();
  const actor = createActor(logic, { clock, inspect, input }).start();
  let tries = 1;
  for (const { event, state } of steps) {
    if (event.type.startsWith('xstate.after.reachDelay')) {
      clock.increment(REACH_DELAY_MS - 1);
      await flush();
      expect(actor.getSnapshot().value).toBe('waitingForServer');
      clock.increment(1);
    } else if (event.type.startsWith('xstate.after.')) {
      const retries = actor.getSnapshot().context.retries;
      // Nothing happens a moment before the pause ends.
      clock.increment(FIRST_RETRY_DELAY_MS * 2 ** (retries - 1) - 1);
      await flush();
      expect(actor.getSnapshot().value).toBe('waiting');
      clock.increment(1);
    } else if (event.type === 'xstate.done.actor.load') pending.latest('load').resolve((event as AnyEventObject).output);
    else if (event.type === 'xstate.error.actor.load') pending.latest('load').reject((event as AnyEventObject).error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    if (snapshot.matches('loading') && (event.type.startsWith('xstate.after.') || event.type === 'baseConfig.retry')) tries += 1;
    expect(snapshot.value).toEqual(state.value);
    expect(snapshot.context.source).toBe(input.source);
    expect(snapshot.context.retries).toBe(state.context.retries);
    // A try is made on entering loading and only then; never more than MAX_RETRIES + 1 a round.
    expect(pending.count('load')).toBe(tries);
    // Every try goes by the input's source, never the other.
    expect(pending.argsOf('load').every(([source]) => source === input.source)).toBe(true);
    if (snapshot.matches('loading')) expect(snapshot.matches({ loading: input.source === 'appId' ? 'byAppId' : 'forSession' })).toBe(true);
    expect(snapshot.context.retries).toBeLessThanOrEqual(MAX_RETRIES);
    if (snapshot.matches('failed')) {
      expect(snapshot.context.retries).toBe(MAX_RETRIES);
      expect(selectBaseConfigError(snapshot)).toBe('Server Failure');
    }
    // An unreachable server never spends a retry.
    if (snapshot.matches('waitingForServer')) expect(snapshot.context.retries).toBe(state.context.retries);
    if (snapshot.matches('loaded')) expect(selectSettings(snapshot)).toEqual(settings);
  }
  actor.stop();
}

describeGeneratedPaths<BaseConfigInput>('baseConfig', baseConfigMachine, {
  events: samples,
  inputs: { 'signed in (for the session)': SESSION, 'without a session (by app id)': BY_APP_ID },
  serializeContext: (c) => ({ retries: (c as { retries: number }).retries }),
  minPaths: 10,
  replay: (path, { input, inspect }) => replay(path.steps, input, inspect),
});

describe('[§7, §8 Base config] retries', () => {
  it.each<BaseConfigSource>(['session', 'appId'])('a server that fails twice is loaded on the third try (%s)', async (source) => {
    const { pending, logic } = manual();
    const clock = new SimulatedClock();
    const actor = createActor(logic, { clock, input: { source } }).start();
    pending.next('load').reject(new Error('Server Failure'));
    await flush();
    clock.increment(500);
    pending.next('load').reject(new Error('Server Failure'));
    await flush();
    expect(selectBaseConfigPhase(actor.getSnapshot())).toBe('loading');
    clock.increment(1000);
    pending.next<AppSettings>('load').resolve(settings);
    await flush();
    expect(selectBaseConfigPhase(actor.getSnapshot())).toBe('loaded');
    expect(pending.argsOf('load')).toEqual([[source], [source], [source]]);
  });

  it('after the first try and three retries it fails; Retry starts a new round', async () => {
    const { pending, logic } = manual();
    const clock = new SimulatedClock();
    const actor = createActor(logic, { clock, input: SESSION }).start();
    for (const pause of [500, 1000, 2000, 0]) {
      pending.next('load').reject(new Error(''));
      await flush();
      clock.increment(pause);
    }
    expect(pending.count('load')).toBe(4);
    expect(selectBaseConfigPhase(actor.getSnapshot())).toBe('failed');
    expect(selectBaseConfigError(actor.getSnapshot())).toBe(TEXT_BASE_CONFIG_FAILED);
    actor.send({ type: 'baseConfig.retry' });
    expect(actor.getSnapshot().context).toMatchObject({ retries: 0, error: null });
    pending.next<AppSettings>('load').resolve(settings);
    await flush();
    expect(selectSettings(actor.getSnapshot())).toEqual(settings);
  });

  it('a server out of reach is asked again every few seconds without spending retries or showing the error screen', async () => {
    const { pending, logic } = manual();
    const clock = new SimulatedClock();
    const actor = createActor(logic, { clock, input: SESSION }).start();
    for (let i = 0; i < 6; i++) {
      pending.next('load').reject(new ServerUnreachable('Network Connection Failure'));
      await flush();
      expect(selectBaseConfigPhase(actor.getSnapshot())).toBe('loading');
      clock.increment(REACH_DELAY_MS);
    }
    expect(actor.getSnapshot().context.retries).toBe(0);
    pending.next<AppSettings>('load').resolve(settings);
    await flush();
    expect(selectBaseConfigPhase(actor.getSnapshot())).toBe('loaded');
  });

  it('[§5] a host may call when the prime switch is on and the level is listed', () => {
    expect(hostMayCall(settings, 2)).toBe(true);
    expect(hostMayCall(settings, 5)).toBe(false);
    expect(hostMayCall({ ...settings, primeHostCanCall: false }, 2)).toBe(false);
    expect(hostMayCall(null, 2)).toBe(false);
  });
});
