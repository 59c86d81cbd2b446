/**
 * Generated-path tests of a connected call's room (SPEC §2 in-call screen, §4 system
 * messages 4, 15, 16, 18, -1): every path is replayed on the real actor with its gift
 * children, for a host and for a paying user.
 */
import { expect } from 'vitest';
import { createActor } from 'xstate';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { MAX_TRANSLATED_LINES, inCallMachine } from './in-call.machine';
import type { InCallContext, InCallInput } from './in-call.machine';

const rose = { giftId: 1, giftName: 'Rose', giftImg: '/gifts/rose.svg', giftNum: 2, fromNick: 'Alex' };
const ask = { askId: 4, channelId: 'ch1', giftId: 11, giftName: 'Ring', giftImg: '/gifts/ring.svg', giftPrice: 520, fromNick: 'Sofia' };

const samples: AnyEventObject[] = [
  { type: 'system.callIncome', amount: 60 },
  { type: 'system.giftIncome', amount: 20 },
  { type: 'system.inCallTranslation', text: ' hola ' },
  { type: 'system.inCallTranslation', text: '   ' },
  { type: 'system.giftReceived', ...rose },
  { type: 'system.askGiftRefused', text: 'Asking for a gift was refused' },
  { type: 'system.giftAsked', ask },
];

const inputs: Record<string, InCallInput> = {
  host: { isHost: true, peer: 'yx-user', channelId: 'ch1', toUserId: 200001, balance: null },
  'paying user': { isHost: false, peer: 'yx-host', channelId: 'ch1', toUserId: 100001, balance: 500 },
};

const coarse = (c: InCallContext) => [c.callIncome > 0, c.giftIncome > 0, c.translations.length > 0];

async function replay(input: InCallInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const actor = createActor(inCallMachine, { input, inspect }).start();
  await flush();
  for (const { event, state } of steps) {
    const before = actor.getSnapshot().context;
    const e = event as AnyEventObject;
    actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    const ctx = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    expect(coarse(ctx)).toEqual(coarse(state.context as InCallContext));
    const children = snapshot.children as Record<string, AnyActorRef | undefined>;
    // Both sides: the gift list and the gift queue; the host asks, the user pays (SPEC §2).
    expect([Boolean(children.giftList), Boolean(children.giftQueue)]).toEqual([true, true]);
    expect([Boolean(children.askGift), Boolean(children.gifting)]).toEqual([input.isHost, !input.isHost]);
    if (event.type === 'system.callIncome') expect(ctx.callIncome).toBe(before.callIncome + 60);
    if (event.type === 'system.giftIncome') expect(ctx.giftIncome).toBe(before.giftIncome + 20);
    if (event.type === 'system.inCallTranslation') {
      expect(ctx.translations.length).toBe(Math.min(MAX_TRANSLATED_LINES, before.translations.length + (e.text.trim() ? 1 : 0)));
      if (e.text.trim()) expect(ctx.translations.at(-1)?.text).toBe('hola');
    }
    if (event.type === 'system.giftReceived') {
      const queue = children.giftQueue!.getSnapshot().context;
      expect([queue.current, ...queue.waiting].at(-1)).toMatchObject(rose);
    }
    if (event.type === 'system.askGiftRefused' && input.isHost) {
      expect(children.askGift!.getSnapshot().context.notice).toBe('Asking for a gift was refused');
    }
    if (event.type === 'system.giftAsked' && !input.isHost) expect(children.gifting!.getSnapshot().context.ask).toEqual(ask);
  }
  if (!input.isHost) expect(actor.getSnapshot().children.gifting?.getSnapshot().context.known).toEqual({ amount: 500, at: 0 });
  actor.stop();
}

describeGeneratedPaths('in-call room', inCallMachine, {
  events: samples,
  inputs,
  serializeContext: (c) => coarse(c as InCallContext),
  minPaths: 5,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});
