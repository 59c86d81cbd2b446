/**
 * Generated-path tests of a talk's extras (SPEC §2 /talk, §7 block, translate, secret
 * messages): every path is replayed on the real actor; what the short-lived children would
 * report is sent as their events, and the children that were started are recorded. A failed
 * lookup of the peer is tried again after its wait on a simulated clock, not a moment before.
 * A secret is paid for only after its price and the balance were looked up and the person
 * confirmed; cancelling locks it again. Paying carries its intent's idempotency key, made as
 * the person confirms: a tap while it checks, asks or opens asks nothing more, a payment that
 * got no answer is paid again with the same key at the next Unlock (without asking again), and
 * one that was answered (opened or refused) leaves none, so the next payment takes a new one.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromCallback } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { seenIntentKeys } from '../testing/intent-keys';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { PEER_RETRY_MS, blockStateOf, peerRetryMs, talkExtrasMachine } from './talk-extras.machine';
import type { TalkExtrasContext, TalkExtrasEvent } from './talk-extras.machine';

const secretInfo = { id: 7, price: 10, unlocked: true, content: 'for you', mediaList: [], balance: 190 };
/** What a look at a secret not paid for yet answers: its price and the asker's diamonds. */
const lockedInfo = { id: 7, price: 10, unlocked: false, content: null, mediaList: [], balance: 200 };

const RETRY = afterEvent('peerRetry', 'talkExtras.unknown.resting');

const samples: AnyEventObject[] = [
  { type: 'talk.peerFailed' },
  { type: RETRY },
  { type: 'talk.peer', nickname: 'Ann', blocked: false, userId: 100001, isHost: true, living: true },
  { type: 'talk.peer', nickname: 'Bo', blocked: true },
  { type: 'talk.translate', key: 'k1', text: 'hola', to: 'en' },
  { type: 'talk.translate', key: 'k2', text: '   ', to: 'en' },
  { type: 'talk.translated', key: 'k1', text: 'hello' },
  { type: 'talk.translateFailed', key: 'k1', reason: 'The translator is busy. Please try again in a moment.' },
  { type: 'talk.setBlocked', blocked: true },
  { type: 'talk.setBlocked', blocked: false },
  { type: 'talk.blockDone' },
  { type: 'talk.blockFailed', reason: 'offline' },
  { type: 'talk.unlockSecret', id: 7 },
  { type: 'talk.confirmUnlock', id: 7 },
  { type: 'talk.cancelUnlock', id: 7 },
  { type: 'talk.secretOpened', id: 7, info: lockedInfo },
  { type: 'talk.secretOpened', id: 7, info: secretInfo },
  { type: 'talk.secretFailed', id: 7, reason: 'You do not have enough diamonds.' },
  { type: 'talk.secretFailed', id: 7, reason: 'Network Connection Failure', unanswered: true },
];

/** The secret's status, and whether it keeps an unanswered payment's key. */
const coarse = (c: TalkExtrasContext) => {
  const secret = c.secrets[7];
  return [c.translations.k1?.status ?? null, secret?.status ?? null, secret?.status === 'failed' && secret.payKey !== undefined];
};
/** Past the last wait every further failure waits the same: the model stops counting there (+1 to reach it). */
const countedFailures = (c: TalkExtrasContext) => Math.min(c.peerFailures, PEER_RETRY_MS.length + 1);

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { made, restore } = seenIntentKeys();
  try {
    await replaySteps(steps, inspect, made);
  } finally {
    restore();
  }
}

async function replaySteps(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn, made: string[]) {
  const started: { src: string; input: unknown }[] = [];
  const record = (src: string) => fromCallback(({ input }) => { started.push({ src, input }); return () => {}; });
  const toasts: string[] = [];
  const clock = new SimulatedClock();
  let failures = 0;
  const actor = createActor(talkExtrasMachine.provide({
    actors: {
      peerInfo: record('peerInfo') as never, translate: record('translate') as never,
      setBlocked: record('setBlocked') as never, openSecret: record('openSecret') as never,
    },
  }), { input: { peer: 'peer' }, clock, inspect });
  actor.on('toast', (t) => toasts.push(t.text));
  actor.start();
  expect(started).toEqual([{ src: 'peerInfo', input: { peer: 'peer' } }]);

  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    const startedBefore = started.length;
    const keysBefore = made.length;
    const e = event as AnyEventObject;
    if (e.type === RETRY) {
      clock.increment(peerRetryMs(failures) - 1);
      await flush();
      // Not a moment before the wait.
      expect(actor.getSnapshot().matches({ unknown: 'resting' })).toBe(true);
      expect(started.length).toBe(startedBefore);
      clock.increment(1);
    } else {
      actor.send(event as never);
    }
    if (e.type === 'talk.peerFailed') failures++;
    if (e.type === 'talk.peer' && before.matches('unknown')) failures = 0;
    await flush();
    const snapshot = actor.getSnapshot();
    const ctx = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    expect(coarse(ctx)).toEqual(coarse(state.context as TalkExtrasContext));
    expect(ctx.peerFailures).toBe(failures);
    const block = blockStateOf(snapshot);
    // Looked up again after the wait, and only then; a failure shows nothing known of the peer.
    if (e.type === RETRY) expect(started.slice(startedBefore)).toEqual([{ src: 'peerInfo', input: { peer: 'peer' } }]);
    if (e.type === 'talk.peerFailed') {
      expect(started.length).toBe(startedBefore);
      expect([block, ctx.peerName]).toEqual([{ blocked: null, changing: false }, null]);
    }
    if (event.type === 'talk.peer' && before.matches('unknown')) {
      expect(block).toEqual({ blocked: e.blocked, changing: false });
      expect(ctx.peerName).toBe(e.nickname);
      // A host live now is offered (the lookup's word; not live when it says nothing).
      expect(ctx.peerLiving).toBe(e.living === true);
    }
    // A block or unblock is asked of the server once, and only when it changes something.
    if (event.type === 'talk.setBlocked') {
      const asks = !before.matches('unknown') && !blockStateOf(before).changing && blockStateOf(before).blocked !== e.blocked;
      expect(started.length).toBe(startedBefore + (asks ? 1 : 0));
      if (asks) expect(started.at(-1)).toEqual({ src: 'setBlocked', input: { peer: 'peer', blocked: e.blocked } });
    }
    if (event.type === 'talk.blockDone' && blockStateOf(before).changing) {
      expect(block).toEqual({ blocked: before.matches('blocking'), changing: false });
    }
    if (event.type === 'talk.blockFailed' && blockStateOf(before).changing) {
      expect(block).toEqual({ blocked: blockStateOf(before).blocked, changing: false });
      expect(toasts.at(-1)).toBe('offline');
    }
    if (event.type === 'talk.translate') {
      const asks = e.text.trim() !== '' && (before.context.translations.k1 === undefined || before.context.translations.k1.status === 'failed');
      expect(started.length).toBe(startedBefore + (asks ? 1 : 0));
      if (asks) expect(ctx.translations.k1).toEqual({ status: 'translating' });
    }
    if (event.type === 'talk.translated') expect(ctx.translations.k1).toEqual({ status: 'done', text: 'hello' });
    const prior = before.context.secrets[7];
    if (event.type === 'talk.unlockSecret') {
      // A locked secret, or a failed one, is looked at first (nothing paid, no key made); a payment
      // that got no answer is sent again under its key without asking again; any other tap is not taken.
      const asks = prior === undefined || prior.status === 'failed';
      const kept = prior?.status === 'failed' ? prior.payKey : undefined;
      expect(started.length).toBe(startedBefore + (asks ? 1 : 0));
      expect(made.length).toBe(keysBefore);
      if (asks) {
        expect(started.at(-1)).toEqual({ src: 'openSecret', input: { id: 7, payKey: kept ?? null } });
        expect(ctx.secrets[7]).toEqual(kept ? { status: 'opening', payKey: kept } : { status: 'checking' });
      }
    }
    if (event.type === 'talk.confirmUnlock') {
      // Paid only once asked, under a key made now.
      const asked = prior?.status === 'confirming';
      expect(started.length).toBe(startedBefore + (asked ? 1 : 0));
      expect(made.length).toBe(keysBefore + (asked ? 1 : 0));
      if (asked) expect(started.at(-1)).toEqual({ src: 'openSecret', input: { id: 7, payKey: made.at(-1) } });
    }
    if (event.type === 'talk.cancelUnlock') {
      expect(started.length).toBe(startedBefore);
      expect(ctx.secrets[7]).toEqual(prior?.status === 'confirming' ? undefined : prior);
    }
    if (event.type === 'talk.secretOpened') {
      // A look at a secret not paid for asks, with its price and the balance; anything else shows what came.
      expect(ctx.secrets[7]).toEqual(prior?.status === 'checking' && !e.info.unlocked
        ? { status: 'confirming', price: 10, balance: 200 }
        : { status: 'open', info: e.info });
    }
    if (event.type === 'talk.secretFailed') {
      expect(toasts.at(-1)).toBe(e.reason);
      // No answer: the key stays for the next Unlock. An answer (a refusal) ends the payment.
      const opening = before.context.secrets[7];
      expect(ctx.secrets[7]).toEqual({
        status: 'failed', reason: e.reason, ...(e.unanswered && opening?.status === 'opening' ? { payKey: opening.payKey } : {}),
      });
    }
  }
  actor.stop();
}

describeGeneratedPaths('talk extras', talkExtrasMachine, {
  events: samples,
  inputs: { 'peer chat': { peer: 'peer' } },
  serializeContext: (c) => [...coarse(c as TalkExtrasContext), countedFailures(c as TalkExtrasContext)],
  minPaths: 20,
  // A child reports only once it was started: block answers while changing, translation and secret answers after their ask.
  possible: (s, e) => {
    const ctx = s.context as TalkExtrasContext;
    if (e.type === 'talk.peer') return s.matches({ unknown: 'looking' });
    // Failed lookups and their retries touch nothing of translations, secrets and blocking: they
    // are walked before any of those begins, and those only once no lookup has failed (the walk
    // would otherwise multiply one by the other).
    const untouched = Object.keys(ctx.translations).length === 0 && Object.keys(ctx.secrets).length === 0;
    if (e.type === 'talk.peerFailed') return s.matches({ unknown: 'looking' }) && untouched;
    if (e.type === RETRY) return untouched;
    if (ctx.peerFailures > 0) return false;
    if (e.type === 'talk.blockDone' || e.type === 'talk.blockFailed') return s.matches('blocking') || s.matches('unblocking');
    if (e.type === 'talk.translated' || e.type === 'talk.translateFailed') return ctx.translations.k1?.status === 'translating';
    // A look answers locked or unlocked; a payment answers unlocked.
    if (e.type === 'talk.secretOpened' && !(e as Extract<TalkExtrasEvent, { type: 'talk.secretOpened' }>).info.unlocked) return ctx.secrets[7]?.status === 'checking';
    if (e.type === 'talk.secretOpened' || e.type === 'talk.secretFailed') return ctx.secrets[7]?.status === 'checking' || ctx.secrets[7]?.status === 'opening';
    return true;
  },
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('unlocking a secret', () => {
  it('Scenario: Unlock looks first and asks with the price and the balance; only Unlock in the dialog pays, once; Cancel locks it again', async () => {
    const { made, restore } = seenIntentKeys();
    try {
      const started: { id: number; payKey: string | null }[] = [];
      const actor = createActor(talkExtrasMachine.provide({
        actors: { openSecret: fromCallback(({ input }) => { started.push(input as { id: number; payKey: string | null }); return () => {}; }) as never },
      }), { input: { peer: 'peer' } }).start();
      actor.send({ type: 'talk.unlockSecret', id: 7 });
      expect(started).toEqual([{ id: 7, payKey: null }]);
      actor.send({ type: 'talk.secretOpened', id: 7, info: lockedInfo });
      expect(actor.getSnapshot().context.secrets[7]).toEqual({ status: 'confirming', price: 10, balance: 200 });
      actor.send({ type: 'talk.unlockSecret', id: 7 });
      actor.send({ type: 'talk.cancelUnlock', id: 7 });
      expect(actor.getSnapshot().context.secrets[7]).toBeUndefined();
      expect(made).toEqual([]);

      actor.send({ type: 'talk.unlockSecret', id: 7 });
      actor.send({ type: 'talk.secretOpened', id: 7, info: lockedInfo });
      actor.send({ type: 'talk.confirmUnlock', id: 7 });
      actor.send({ type: 'talk.confirmUnlock', id: 7 });
      expect(started).toEqual([{ id: 7, payKey: null }, { id: 7, payKey: null }, { id: 7, payKey: made[0] }]);
      expect(made).toHaveLength(1);
      actor.send({ type: 'talk.secretOpened', id: 7, info: secretInfo });
      expect(actor.getSnapshot().context.secrets[7]).toEqual({ status: 'open', info: secretInfo });
      actor.stop();
    } finally {
      restore();
    }
  });
});

describe('the peer lookup', () => {
  it('waits 1, 2, 5 and 10 s after failures in a row, then every 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(peerRetryMs)).toEqual([1_000, 2_000, 5_000, 10_000, 30_000, 30_000, 30_000]);
  });

  it('is tried again after each failure until it answers, then no more', async () => {
    const clock = new SimulatedClock();
    let lookups = 0;
    const actor = createActor(talkExtrasMachine.provide({
      actors: { peerInfo: fromCallback(() => { lookups++; return () => {}; }) as never },
    }), { input: { peer: 'peer' }, clock }).start();
    for (const wait of [1_000, 2_000, 5_000, 10_000, 30_000, 30_000]) {
      const before = lookups;
      actor.send({ type: 'talk.peerFailed' });
      clock.increment(wait - 1);
      await flush();
      expect(lookups).toBe(before);
      clock.increment(1);
      await flush();
      expect(lookups).toBe(before + 1);
    }
    actor.send({ type: 'talk.peer', nickname: 'Ann', blocked: false, userId: 100001, isHost: true });
    expect(actor.getSnapshot().matches('unblocked')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ peerName: 'Ann', peerIsHost: true, peerFailures: 0 });
    clock.increment(60_000);
    await flush();
    expect(lookups).toBe(7);
    actor.stop();
  });
});
