/**
 * Generated-path tests of the withdrawal password (SPEC §7 setWithdrawPassWord) over a manual
 * port: set, then changed with the old one; the rules in their order; the server's refusals
 * and its lock. Checked at each step: no password enters the context.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import {
  PASSWORD_ATTEMPTS, TEXT_PASSWORD_FORMAT, TEXT_PASSWORD_MISMATCH, TEXT_PASSWORD_SAME, textPasswordLocked, textWrongPassword,
} from '../codes/withdraw.codes';
import { PendingCalls } from '../ports/pending';
import { FakeWithdrawPort } from '../ports/withdraw.fake';
import { PasswordRefusedError } from '../ports/withdraw.port';
import { describeGeneratedPaths, flush, playStep } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { composeWithdrawPassword } from './withdraw-password.actors';
import { passwordProblem, withdrawPasswordMachine } from './withdraw-password.machine';
import type { PasswordSubmit, WithdrawPasswordContext, WithdrawPasswordInput } from './withdraw-password.machine';

const NEW = '123456';
const OLD = '111111';
const submit = (password: string, confirm: string, oldPassword?: string): PasswordSubmit =>
  ({ type: 'password.submit', password, confirmPassword: confirm, ...(oldPassword === undefined ? {} : { oldPassword }) });

const samples: AnyEventObject[] = [
  submit(NEW, NEW),
  submit('12', '12'),
  submit(NEW, '654321'),
  submit(NEW, NEW, NEW),
  submit(NEW, NEW, OLD),
  submit(NEW, NEW, 'abc'),
  { type: 'password.change' },
  { type: 'password.back' },
  { type: 'xstate.done.actor.save', output: undefined },
  { type: 'xstate.error.actor.save', error: new PasswordRefusedError(textPasswordLocked(900_000), true) },
  { type: 'xstate.error.actor.save', error: new PasswordRefusedError(textWrongPassword(3), false) },
  { type: 'xstate.error.actor.save', error: new Error('The server is away.') },
];

function setUp() {
  const pending = new PendingCalls();
  const logic = withdrawPasswordMachine.provide({ actors: { save: fromPromise(({ input }) => pending.add('save', [input])) } });
  return { pending, logic };
}

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], input: WithdrawPasswordInput, inspect: InspectFn) {
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
    const context: WithdrawPasswordContext = snapshot.context;
    const text = JSON.stringify(context);
    expect(text).not.toContain(NEW);
    expect(text).not.toContain(OLD);
    if (e.type === 'password.submit') {
      const typed = e as PasswordSubmit;
      if (snapshot.matches('saving')) {
        expect(pending.latest('save').args[0]).toEqual(before.context.mode === 'change' ? { password: typed.password, oldPassword: typed.oldPassword } : { password: typed.password });
      } else expect(context.problem).toBe(passwordProblem(before.context.mode, typed));
    }
    if (snapshot.matches('done')) expect(context.mode).toBe('change');
    if (e.type === 'xstate.error.actor.save') expect(context.error).toBe((e.error as Error).message);
  }
  actor.stop();
}

describeGeneratedPaths('withdrawPassword', withdrawPasswordMachine, {
  events: samples,
  inputs: { 'none set': { hasPassword: false }, 'one set': { hasPassword: true } },
  serializeContext: (c) => {
    const ctx = c as WithdrawPasswordContext;
    return [ctx.mode, ctx.problem, ctx.error !== null];
  },
  minPaths: 20,
  replay: (path, { input, inspect }) => replay(path.steps, input, inspect),
});

describe('[§7 setWithdrawPassWord] the withdrawal password', () => {
  it('the rules come in their order', () => {
    expect(passwordProblem('change', { password: '12', confirmPassword: '34', oldPassword: 'x' })).toBe(TEXT_PASSWORD_FORMAT);
    expect(passwordProblem('change', { password: '12', confirmPassword: '34', oldPassword: OLD })).toBe(TEXT_PASSWORD_FORMAT);
    expect(passwordProblem('change', { password: NEW, confirmPassword: '34', oldPassword: NEW })).toBe(TEXT_PASSWORD_MISMATCH);
    expect(passwordProblem('change', { password: NEW, confirmPassword: NEW, oldPassword: NEW })).toBe(TEXT_PASSWORD_SAME);
    expect(passwordProblem('set', { password: NEW, confirmPassword: NEW, oldPassword: NEW })).toBeNull();
  });

  it('composed over the port: set, then changed; wrong old passwords lock', async () => {
    const port = new FakeWithdrawPort();
    const actor = createActor(composeWithdrawPassword({ withdraw: port }), { input: { hasPassword: false } }).start();
    actor.send(submit(OLD, OLD));
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
    expect(port.password).toBe(OLD);
    actor.send({ type: 'password.change' });
    for (let i = 1; i < PASSWORD_ATTEMPTS; i++) {
      actor.send(submit(NEW, NEW, '999999'));
      await flush();
      expect(actor.getSnapshot().context.error).toBe(textWrongPassword(PASSWORD_ATTEMPTS - i));
    }
    actor.send(submit(NEW, NEW, '999999'));
    await flush();
    expect(actor.getSnapshot().value).toBe('locked');
    actor.send({ type: 'password.back' });
    actor.send(submit(NEW, NEW, OLD));
    await flush();
    expect(actor.getSnapshot().value).toBe('locked');
    expect(port.password).toBe(OLD);
    actor.stop();
  });
});
