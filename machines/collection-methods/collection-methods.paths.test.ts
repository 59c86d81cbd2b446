/**
 * Generated-path tests of a host's collection methods (SPEC §2 addCollectionMethod and
 * collectionInfo, §7 withdrawAccountList and addWithdrawAccount) over manual ports: the list,
 * the limit, the draft with its kind's rules field by field, the save and the server's refusals.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { MAX_ACCOUNTS, TEXT_ACCOUNT_EXISTS, TEXT_BANK_NUMBER, TEXT_TOO_MANY_ACCOUNTS, accountProblems, normalisedDraft } from '../codes/withdraw.codes';
import type { AccountField } from '../codes/withdraw.codes';
import { PendingCalls } from '../ports/pending';
import { FakeWithdrawPort } from '../ports/withdraw.fake';
import { AccountRefusedError } from '../ports/withdraw.port';
import type { CollectionMethod } from '../ports/withdraw.port';
import { describeGeneratedPaths, flush, playStep } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { composeCollectionMethods } from './collection-methods.actors';
import { collectionMethodsMachine, freshDraft } from './collection-methods.machine';
import type { CollectionMethodsContext, CollectionMethodsInput, CollectionMethodsLoad } from './collection-methods.machine';

const method = (id: number): CollectionMethod => ({
  id, kind: 'bank', holderName: 'Ann Lee', institution: 'First Bank', chain: '', masked: `•••• 000${id}`, createdAt: id,
});
const config = { kinds: ['bank', 'usdt'] as CollectionMethodsLoad['config']['kinds'], providers: ['PayPal'] };
// One short of the limit: one more can be added, then no more.
const some = Array.from({ length: MAX_ACCOUNTS - 1 }, (_, i) => method(i + 1));
const full = [...some, method(MAX_ACCOUNTS)];

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.load', output: { accounts: [], config } },
  { type: 'xstate.done.actor.load', output: { accounts: some, config } },
  { type: 'xstate.done.actor.load', output: { accounts: full, config } },
  { type: 'xstate.error.actor.load', error: new Error('The server is away.') },
  { type: 'methods.retry' },
  { type: 'methods.add' },
  { type: 'methods.kind', kind: 'usdt' },
  { type: 'methods.kind', kind: 'ewallet' },
  { type: 'methods.field', field: 'holderName', value: 'Ann Lee' },
  { type: 'methods.field', field: 'institution', value: 'First Bank' },
  { type: 'methods.field', field: 'accountNumber', value: 'gb12 3456 7890' },
  { type: 'methods.save' },
  { type: 'methods.cancel' },
  { type: 'methods.list' },
  { type: 'xstate.done.actor.save', output: method(42) },
  { type: 'xstate.error.actor.save', error: new AccountRefusedError(TEXT_BANK_NUMBER, { accountNumber: TEXT_BANK_NUMBER }) },
  { type: 'xstate.error.actor.save', error: new AccountRefusedError(TEXT_ACCOUNT_EXISTS) },
  { type: 'xstate.error.actor.save', error: new Error('The server is away.') },
];

function setUp() {
  const pending = new PendingCalls();
  const logic = collectionMethodsMachine.provide({
    actors: {
      load: fromPromise(() => pending.add('load', [])),
      save: fromPromise(({ input }) => pending.add('save', [input])),
    },
  });
  return { pending, logic };
}

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], input: CollectionMethodsInput, inspect: InspectFn) {
  const { pending, logic } = setUp();
  const actor = createActor(logic, { input, inspect });
  actor.start();
  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const before = actor.getSnapshot();
    playStep(actor, pending, event);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    const context: CollectionMethodsContext = snapshot.context;
    // A new method starts empty, of the first kind offered.
    if (snapshot.matches('editing') && !before.matches('editing') && !before.matches('saving')) {
      expect(context).toMatchObject({ draft: freshDraft(config.kinds), problems: null, error: null });
    }
    if (e.type === 'methods.add' && !snapshot.matches('editing')) {
      expect(snapshot.value).toEqual(before.value);
      expect(context.accounts.length).toBeGreaterThanOrEqual(MAX_ACCOUNTS);
      expect(context.error).toBe(TEXT_TOO_MANY_ACCOUNTS);
    }
    if (e.type === 'methods.kind') expect(context.draft.kind).toBe(config.kinds.includes(e.kind as never) ? e.kind : before.context.draft.kind);
    if (e.type === 'methods.field') {
      const field = e.field as AccountField;
      expect(context.draft[field]).toBe(e.value);
      expect(context.problems?.[field]).toBeUndefined();
    }
    if (e.type === 'methods.save') {
      if (snapshot.matches('saving')) expect(pending.latest('save').args[0]).toEqual(normalisedDraft(context.draft));
      else expect(context.problems).toEqual(accountProblems(context.draft, config.providers));
    }
    if (e.type === 'xstate.done.actor.load') expect(context.error).toBe(input.adding && context.accounts.length >= MAX_ACCOUNTS ? TEXT_TOO_MANY_ACCOUNTS : null);
    if (e.type === 'xstate.done.actor.save') {
      expect(context.added).toEqual(method(42));
      expect(context.accounts[0]).toEqual(method(42));
      expect(context.accounts).toHaveLength(before.context.accounts.length + 1);
    }
    if (e.type === 'xstate.error.actor.save') {
      const error = e.error as Error;
      if (error instanceof AccountRefusedError && error.problems) expect(context).toMatchObject({ problems: error.problems, error: null });
      else expect(context).toMatchObject({ problems: null, error: error.message });
    }
  }
  actor.stop();
}

describeGeneratedPaths('collectionMethods', collectionMethodsMachine, {
  events: samples,
  inputs: { 'the list': {}, 'the add view': { adding: true } } as Record<string, CollectionMethodsInput>,
  serializeContext: (c) => {
    const ctx = c as CollectionMethodsContext;
    const { kind, holderName, institution, accountNumber } = ctx.draft;
    // How many methods there are matters only near the limit.
    const count = ctx.accounts.length >= MAX_ACCOUNTS - 1 ? ctx.accounts.length : Math.min(ctx.accounts.length, 1);
    return [kind, !!holderName, !!institution, !!accountNumber, Object.keys(ctx.problems ?? {}).length, ctx.error !== null, count];
  },
  minPaths: 40,
  replay: (path, { input, inspect }) => replay(path.steps, input, inspect),
});

describe('[§2 addCollectionMethod] collection methods', () => {
  it('a double save is one save', async () => {
    const { pending, logic } = setUp();
    const actor = createActor(logic, { input: { adding: true } }).start();
    pending.latest('load').resolve({ accounts: [], config });
    await flush();
    for (const [field, value] of [['holderName', 'Ann Lee'], ['institution', 'First Bank'], ['accountNumber', 'GB1234567890']] as const) {
      actor.send({ type: 'methods.field', field, value });
    }
    actor.send({ type: 'methods.save' });
    actor.send({ type: 'methods.save' });
    expect(pending.count('save')).toBe(1);
    actor.stop();
  });

  it('composed over the port: the method is added masked, first in the list; the same again is refused in words', async () => {
    const port = new FakeWithdrawPort();
    const actor = createActor(composeCollectionMethods({ withdraw: port }), { input: { adding: true } }).start();
    await flush();
    expect(actor.getSnapshot().context.kinds).toEqual(['bank', 'ewallet', 'usdt']);
    actor.send({ type: 'methods.kind', kind: 'ewallet' });
    actor.send({ type: 'methods.field', field: 'holderName', value: 'Ann Lee' });
    actor.send({ type: 'methods.field', field: 'institution', value: 'GCash' });
    actor.send({ type: 'methods.field', field: 'accountNumber', value: '+63 917 123 4567' });
    actor.send({ type: 'methods.save' });
    await flush();
    expect(actor.getSnapshot().value).toBe('saved');
    expect(actor.getSnapshot().context.accounts).toMatchObject([{ kind: 'ewallet', institution: 'GCash', masked: '•••• 4567' }]);
    actor.send({ type: 'methods.add' });
    actor.send({ type: 'methods.kind', kind: 'ewallet' });
    actor.send({ type: 'methods.field', field: 'holderName', value: 'Ann Lee' });
    actor.send({ type: 'methods.field', field: 'institution', value: 'GCash' });
    actor.send({ type: 'methods.field', field: 'accountNumber', value: '+639171234567' });
    actor.send({ type: 'methods.save' });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ error: TEXT_ACCOUNT_EXISTS, problems: null });
    expect(actor.getSnapshot().value).toBe('editing');
    actor.stop();
  });
});
