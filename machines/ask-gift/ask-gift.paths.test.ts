/**
 * Generated-path tests of the host's ask for a gift (SPEC §5 ask blocked during the 15 s
 * cooldown, §8 'Asking for a gift was refused', §9 cooldown 15 s) with a manual askFor and
 * fake timers (the clock and Date move together).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { ASK_GIFT_COOLDOWN_MS, GiftApiError } from '../ports/gift.port';
import { PendingCalls } from '../ports/pending';
import { afterEvent, describeGeneratedPaths } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { TEXT_ASKED, TEXT_ASK_GIFT_REFUSED, askGiftMachine, cooldownSecondsLeft } from './ask-gift.machine';
import type { AskGiftContext } from './ask-gift.machine';

const COOLDOWN = afterEvent('askGiftCooldown', 'askGift.coolingDown');
const SERVER_LEFT_MS = 7_000;

const samples: AnyEventObject[] = [
  { type: 'gift.ask', giftId: 3 },
  { type: 'xstate.done.actor.askFor', output: { askId: 1 } },
  { type: 'xstate.error.actor.askFor', error: new GiftApiError('error', 'This call is not in progress.') },
  { type: 'xstate.error.actor.askFor', error: new GiftApiError('cooldown', 'Please wait 7 s before asking for another gift.', SERVER_LEFT_MS) },
  { type: 'system.askGiftRefused', text: TEXT_ASK_GIFT_REFUSED },
  { type: COOLDOWN },
];

const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => { vi.useFakeTimers({ now: 1_700_000_000_000 }); });
afterEach(() => { vi.useRealTimers(); });

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const actor = createActor(askGiftMachine.provide({
    actors: { askFor: fromPromise(({ input }) => pending.add<{ askId: number }>('askFor', [input])) },
  }), { input: { peer: 'yx-user' }, inspect }).start();
  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    const e = event as AnyEventObject;
    if (event.type === COOLDOWN) {
      // Not a moment before the deadline.
      await vi.advanceTimersByTimeAsync(before.context.nextAskAt - Date.now() - 1);
      expect(actor.getSnapshot().matches('coolingDown')).toBe(true);
      expect(actor.getSnapshot().can({ type: 'gift.ask', giftId: 3 })).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
    } else if (event.type === 'xstate.done.actor.askFor') {
      pending.next('askFor').resolve(e.output);
    } else if (event.type === 'xstate.error.actor.askFor') {
      pending.next('askFor').reject(e.error);
    } else {
      actor.send(event as never);
    }
    await flush();

    const snapshot = actor.getSnapshot();
    const ctx: AskGiftContext = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    expect(ctx.notice).toBe((state.context as AskGiftContext).notice);
    if (event.type === 'gift.ask') expect(pending.argsOf('askFor').at(-1)).toEqual([{ beAskYxAccid: 'yx-user', giftId: 3 }]);
    // SPEC §5: blocked during the cooldown, which runs from the deadline.
    if (snapshot.matches('coolingDown')) {
      expect(snapshot.can({ type: 'gift.ask', giftId: 3 })).toBe(false);
      expect(ctx.nextAskAt).toBeGreaterThan(Date.now());
      expect(ctx.nextAskAt - Date.now()).toBeLessThanOrEqual(ASK_GIFT_COOLDOWN_MS);
      expect(cooldownSecondsLeft(ctx.nextAskAt, Date.now())).toBeGreaterThan(0);
    }
    if (event.type === 'xstate.done.actor.askFor') {
      expect(ctx.nextAskAt - Date.now()).toBe(ASK_GIFT_COOLDOWN_MS);
      expect(cooldownSecondsLeft(ctx.nextAskAt, Date.now())).toBe(15);
    }
    if (e.type === 'xstate.error.actor.askFor' && (e.error as GiftApiError).refusal === 'cooldown') {
      expect(ctx.nextAskAt - Date.now()).toBe(SERVER_LEFT_MS);
    }
    if (snapshot.matches('ready')) expect(Date.now()).toBeGreaterThanOrEqual(ctx.nextAskAt);
    if (event.type === 'system.askGiftRefused') expect(ctx.notice).toBe(TEXT_ASK_GIFT_REFUSED);
    // Only one ask at a time.
    expect(pending.open().length).toBe(snapshot.matches('asking') ? 1 : 0);
  }
  actor.stop();
}

describeGeneratedPaths('ask gift', askGiftMachine, {
  events: samples,
  inputs: { 'host in a call': { peer: 'yx-user' } },
  serializeContext: (c) => (c as AskGiftContext).notice,
  minPaths: 10,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§9 ask-gift cooldown] deadline', () => {
  it('Scenario: the countdown reads the deadline, so a late timer does not stretch what is shown', () => {
    const asked = Date.now();
    const deadline = asked + ASK_GIFT_COOLDOWN_MS;
    expect(cooldownSecondsLeft(deadline, asked)).toBe(15);
    expect(cooldownSecondsLeft(deadline, asked + 14_001)).toBe(1);
    expect(cooldownSecondsLeft(deadline, asked + 15_000)).toBe(0);
    // The tab slept for a minute: nothing is left, whatever the timers did.
    expect(cooldownSecondsLeft(deadline, asked + 60_000)).toBe(0);
  });

  it('Scenario: an ask for no gift is not sent', () => {
    const actor = createActor(askGiftMachine, { input: { peer: 'yx-user' } }).start();
    actor.send({ type: 'gift.ask', giftId: 0 });
    actor.send({ type: 'gift.ask', giftId: 1.5 });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
  });

  it('Scenario: asked, the next ask waits 15 s', async () => {
    const actor = createActor(askGiftMachine.provide({ actors: { askFor: fromPromise(async () => ({ askId: 9 })) } }), {
      input: { peer: 'yx-user' },
    }).start();
    actor.send({ type: 'gift.ask', giftId: 2 });
    await flush();
    expect(actor.getSnapshot().context.notice).toBe(TEXT_ASKED);
    await vi.advanceTimersByTimeAsync(ASK_GIFT_COOLDOWN_MS - 1);
    expect(actor.getSnapshot().matches('coolingDown')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
  });
});
