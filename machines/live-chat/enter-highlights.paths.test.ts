/**
 * Generated-path tests of the entering-room highlights (SPEC §6 userLevel above 0, §9 enter
 * highlight 2 s each, enter list shift 1.2 s): every path is replayed on the real actor with
 * its timers fired as the path says, and at each step the waiting queue and the two slots are
 * checked against a plain model of them. How long each timer is: enter-highlights.machine.test.ts.
 */
import { expect } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { afterEvent, describeGeneratedPaths } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { fireTimer } from '../testing/timers';
import { enterHighlightsMachine, highlightsOnShow } from './enter-highlights.machine';
import type { EnterHighlightsContext, HighlightSlot } from './enter-highlights.machine';
import type { Highlight } from './live-chat.types';

const SHIFT = afterEvent('highlightShift', 'enterHighlights.cadence.cooling');
const SHOW_A = afterEvent('highlightShow', 'enterHighlights.slotA.shown');
const SHOW_B = afterEvent('highlightShow', 'enterHighlights.slotB.shown');

const member = (account: string, userLevel: number): Highlight => ({ account, nick: account, avatar: null, userLevel, isVip: false });

const samples: AnyEventObject[] = [
  { type: 'highlight.add', highlight: member('lvl3', 3) },
  { type: 'highlight.add', highlight: member('lvl0', 0) },
  { type: SHIFT }, { type: SHOW_A }, { type: SHOW_B },
];

/** The plain model: who waits, who is in which slot. */
interface Model {
  waiting: string[];
  slots: Record<HighlightSlot, { account: string; seq: number } | null>;
  seq: number;
  cooling: boolean;
}

function step(model: Model, event: AnyEventObject): void {
  const showNext = () => {
    const next = model.waiting.shift();
    if (next === undefined) return;
    const { A, B } = model.slots;
    const slot: HighlightSlot = A === null ? 'A' : B === null ? 'B' : A.seq < B.seq ? 'A' : 'B';
    model.slots[slot] = { account: next.split('#')[0]!, seq: Number(next.split('#')[1]) };
  };
  if (event.type === 'highlight.add') {
    const h = event.highlight as Highlight;
    if (h.userLevel <= 0) return;
    model.waiting.push(`${h.account}#${++model.seq}`);
    if (!model.cooling) {
      model.cooling = true;
      showNext();
    }
  }
  if (event.type === SHIFT) {
    if (model.waiting.length > 0) showNext();
    else model.cooling = false;
  }
  if (event.type === SHOW_A) model.slots.A = null;
  if (event.type === SHOW_B) model.slots.B = null;
}

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const actor = createActor(enterHighlightsMachine, { clock: new SimulatedClock(), inspect }).start();
  const model: Model = { waiting: [], slots: { A: null, B: null }, seq: 0, cooling: false };
  for (const { event, state } of steps) {
    if (event.type.startsWith('xstate.after.')) fireTimer(actor, event.type);
    else actor.send(event as never);
    step(model, event as AnyEventObject);
    const snapshot = actor.getSnapshot();
    const ctx: EnterHighlightsContext = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    expect(ctx.waiting.map((h) => `${h.account}#${h.seq}`)).toEqual(model.waiting);
    expect({ A: ctx.slots.A && { account: ctx.slots.A.account, seq: ctx.slots.A.seq }, B: ctx.slots.B && { account: ctx.slots.B.account, seq: ctx.slots.B.seq } })
      .toEqual(model.slots);
    // SPEC §6: nobody at level 0 is ever highlighted.
    expect([...ctx.waiting, ...highlightsOnShow(ctx)].every((h) => h.userLevel > 0)).toBe(true);
    // A slot with a highlight runs its 2 s; an empty one runs nothing.
    expect(snapshot.matches({ slotA: 'shown' })).toBe(ctx.slots.A !== null);
    expect(snapshot.matches({ slotB: 'shown' })).toBe(ctx.slots.B !== null);
    // Waiting only while the last one came in less than 1.2 s ago.
    if (ctx.waiting.length > 0) expect(snapshot.matches({ cadence: 'cooling' })).toBe(true);
  }
  actor.stop();
}

describeGeneratedPaths('enterHighlights', enterHighlightsMachine, {
  events: samples,
  // At most two waiting: more adds nothing new to the paths.
  possible: (s, e) => e.type !== 'highlight.add' || (s.context as EnterHighlightsContext).waiting.length < 2,
  serializeContext: (c) => {
    const ctx = c as EnterHighlightsContext;
    const { A, B } = ctx.slots;
    return [ctx.waiting.length, A !== null, B !== null, A && B ? A.seq < B.seq : null];
  },
  minPaths: 10,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});
