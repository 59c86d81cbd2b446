/**
 * Generated-path tests of a host's withdrawal (SPEC §2 withdrawal, §6 host: withdrawal, §7
 * applyWithdrawV2) over manual ports: where the load leads, the amount and the account, the
 * password at apply, each answer of the apply, and one intent per apply (an apply with no
 * answer sends its key again). Checked at each step: the password never enters the context.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import {
  TEXT_CHOOSE_ACCOUNT, TEXT_PASSWORD_FORMAT, amountProblem, textAboveBalance, textBelowMinimum, textDays, textPasswordLocked, textWrongPassword,
} from '../codes/withdraw.codes';
import { PendingCalls } from '../ports/pending';
import { FakeWithdrawPort } from '../ports/withdraw.fake';
import { PasswordRefusedError } from '../ports/withdraw.port';
import type { CollectionMethod, HostBalance, WithdrawConfig, WithdrawRequest, WithdrawalRecord } from '../ports/withdraw.port';
import { UnansweredError } from '../shared/intent-key';
import { describeGeneratedPaths, flush, playStep } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { seenIntentKeys } from '../testing/intent-keys';
import { composeWithdrawal } from './withdrawal.actors';
import { problemOf, withdrawalMachine } from './withdrawal.machine';
import type { WithdrawalContext, WithdrawalInput, WithdrawalLoad } from './withdrawal.machine';
import { selectAmount, selectChosenAccount, selectQuote } from './withdrawal.selectors';

const PASSWORD = '123456';
// A Wednesday, 2026-11-25 12:00 UTC.
const NOW = Date.UTC(2026, 10, 25, 12);
const config: WithdrawConfig = {
  minimum: 1000, maximum: 100_000, feePercent: 5, rate: 100, allowedDays: [1, 2, 3, 4, 5, 6, 7],
  kinds: ['bank', 'ewallet', 'usdt'], providers: ['PayPal'], openToday: true, hasPassword: true,
};
const account = (id: number, createdAt: number): CollectionMethod => ({
  id, kind: 'bank', holderName: 'Ann Lee', institution: 'First Bank', chain: '', masked: `•••• 000${id}`, createdAt,
});
const accounts = [account(1, 100), account(2, 200)];
const balance: HostBalance = { income: 3000, held: 0, withdrawable: 3000 };
const record: WithdrawalRecord = {
  id: 7, amount: 2000, fee: 100, usd: '19.00', status: 'applied', reason: '', accountKind: 'bank', accountLabel: 'First Bank •••• 0002', createdAt: NOW, updatedAt: NOW,
};
const load = (over: Partial<WithdrawalLoad> = {}): WithdrawalLoad => ({ config, accounts, balance, now: NOW, ...over });

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.load', output: load() },
  { type: 'xstate.done.actor.load', output: load({ config: { ...config, hasPassword: false }, accounts: [] }) },
  { type: 'xstate.done.actor.load', output: load({ accounts: [] }) },
  { type: 'xstate.done.actor.load', output: load({ config: { ...config, openToday: false, allowedDays: [1] } }) },
  { type: 'xstate.error.actor.load', error: new Error('The server is away.') },
  { type: 'withdrawal.retry' },
  { type: 'withdrawal.reload' },
  { type: 'withdrawal.amount', text: '2000' },
  { type: 'withdrawal.amount', text: '5' },
  { type: 'withdrawal.all' },
  { type: 'withdrawal.account', id: 1 },
  { type: 'withdrawal.account', id: 99 },
  { type: 'withdrawal.next' },
  { type: 'withdrawal.submit', password: PASSWORD },
  { type: 'withdrawal.submit', password: '12ab' },
  { type: 'withdrawal.back' },
  { type: 'withdrawal.again' },
  { type: 'xstate.done.actor.apply', output: record },
  { type: 'xstate.error.actor.apply', error: new PasswordRefusedError(textPasswordLocked(900_000), true) },
  { type: 'xstate.error.actor.apply', error: new PasswordRefusedError(textWrongPassword(4), false) },
  { type: 'xstate.error.actor.apply', error: new UnansweredError('No answer came.') },
  { type: 'xstate.error.actor.apply', error: new Error(textAboveBalance(1000)) },
];

function setUp() {
  const pending = new PendingCalls();
  const logic = withdrawalMachine.provide({
    actors: {
      load: fromPromise(() => pending.add('load', [])),
      apply: fromPromise(({ input }) => pending.add('apply', [input])),
    },
  });
  return { pending, logic };
}

const keys = seenIntentKeys();
afterAll(() => keys.restore());

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], input: WithdrawalInput, inspect: InspectFn) {
  const { pending, logic } = setUp();
  const actor = createActor(logic, { input, inspect });
  actor.start();
  const keysSent: string[] = [];
  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const before = actor.getSnapshot();
    playStep(actor, pending, event);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    const context: WithdrawalContext = snapshot.context;
    // The password is handed to the apply, never kept.
    expect(JSON.stringify(context)).not.toContain(PASSWORD);
    if (e.type === 'xstate.done.actor.load') {
      const loaded = e.output as WithdrawalLoad;
      const asked = loaded.accounts.some((a) => a.id === before.context.accountId) ? before.context.accountId : null;
      expect(context.accountId).toBe(asked ?? (loaded.accounts.length ? 2 : null));
    }
    if (snapshot.matches('closed')) expect(context.problem).toBe(textDays([1]));
    if (e.type === 'withdrawal.next' && snapshot.matches('editing')) {
      expect(context.problem).toBe(amountProblem(config, Number(context.amountText || NaN), balance.income, NOW) ?? TEXT_CHOOSE_ACCOUNT);
    }
    if (e.type === 'withdrawal.submit' && snapshot.matches('confirming')) expect(context.passwordError).toBe(TEXT_PASSWORD_FORMAT);
    // An apply goes out with the amount, the account and the password submitted, and a key:
    // the same one after an apply that got no answer, a new one otherwise.
    if (snapshot.matches('applying') && !before.matches('applying')) {
      const sent = pending.latest('apply').args[0] as WithdrawRequest;
      expect(sent).toEqual({ idempotencyKey: context.key, amount: Number(context.amountText), accountId: context.accountId, password: PASSWORD });
      if (before.context.key !== null) expect(sent.idempotencyKey).toBe(keysSent.at(-1));
      else expect(keysSent).not.toContain(sent.idempotencyKey);
      keysSent.push(sent.idempotencyKey);
    }
    if (e.type === 'xstate.error.actor.apply') {
      const error = e.error as Error;
      expect(context.key !== null).toBe(error instanceof UnansweredError);
      expect(snapshot.matches('confirming') ? context.passwordError : context.error).toBe(error.message);
    }
    if (snapshot.matches('applied')) expect(context).toMatchObject({ record, key: null });
    // Going back after an apply with no answer reloads; the key goes with the intent.
    if (e.type === 'withdrawal.back' && before.matches('confirming')) {
      expect(snapshot.matches('loading')).toBe(before.context.key !== null);
      expect(context.key).toBeNull();
    }
    if (!snapshot.matches('applying') && !snapshot.matches('confirming')) expect(context.key).toBeNull();
  }
  actor.stop();
}

describeGeneratedPaths('withdrawal', withdrawalMachine, {
  events: samples,
  inputs: { 'nothing chosen': {}, 'a method just added': { accountId: 1 } } as Record<string, WithdrawalInput>,
  serializeContext: (c) => {
    const ctx = c as WithdrawalContext;
    return [ctx.amountText, ctx.accountId, ctx.accounts.length, ctx.problem !== null, ctx.passwordError !== null, ctx.key !== null, ctx.error !== null];
  },
  minPaths: 40,
  replay: (path, { input, inspect }) => replay(path.steps, input, inspect),
});

describe('[§6 host: withdrawal] the withdrawal', () => {
  it('the amount\'s problems come in the rules\' order; no account chosen is said last', () => {
    const base: WithdrawalContext = {
      config, accounts, balance, now: NOW, amountText: '', accountId: null, problem: null, error: null, passwordError: null, key: null, record: null,
    };
    expect(problemOf({ ...base, amountText: '5' })).toBe(textBelowMinimum(1000));
    expect(problemOf({ ...base, amountText: '4000' })).toBe(textAboveBalance(3000));
    expect(problemOf({ ...base, amountText: '2000' })).toBe(TEXT_CHOOSE_ACCOUNT);
    expect(problemOf({ ...base, amountText: '2000', accountId: 1 })).toBeNull();
  });

  it('a double tap while applying is one apply; its quote and account are what the screen shows', async () => {
    const { pending, logic } = setUp();
    const actor = createActor(logic, { input: {} }).start();
    pending.latest('load').resolve(load());
    await flush();
    actor.send({ type: 'withdrawal.all' });
    actor.send({ type: 'withdrawal.next' });
    expect(selectAmount(actor.getSnapshot())).toBe(3000);
    expect(selectQuote(actor.getSnapshot())).toEqual({ fee: 150, net: 2850, usd: '28.50' });
    expect(selectChosenAccount(actor.getSnapshot())?.id).toBe(2);
    actor.send({ type: 'withdrawal.submit', password: PASSWORD });
    actor.send({ type: 'withdrawal.submit', password: PASSWORD });
    expect(pending.count('apply')).toBe(1);
    actor.stop();
  });

  it('composed over the port: applies once, the amount held at once; a wrong password is said and counted', async () => {
    let now = NOW;
    const port = new FakeWithdrawPort('auto', { income: 5000, password: PASSWORD, now: () => now });
    const added = await port.addAccount({ kind: 'usdt', holderName: '', institution: '', accountNumber: `T${'1'.repeat(33)}`, chain: 'TRC20' });
    const actor = createActor(composeWithdrawal({ withdraw: port, clock: { now: () => now } }), { input: { accountId: added.id } }).start();
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'withdrawal.amount', text: '2000' });
    actor.send({ type: 'withdrawal.next' });
    actor.send({ type: 'withdrawal.submit', password: '654321' });
    await flush();
    expect(actor.getSnapshot().context.passwordError).toBe(textWrongPassword(4));
    actor.send({ type: 'withdrawal.submit', password: PASSWORD });
    await flush();
    expect(actor.getSnapshot().value).toBe('applied');
    expect(await port.balance()).toEqual({ income: 3000, held: 2000, withdrawable: 3000 });
    now += 1;
    actor.send({ type: 'withdrawal.again' });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ amountText: '', balance: { income: 3000 }, now: NOW + 1 });
    actor.stop();
  });
});
