/**
 * A host's withdrawal password (SPEC §2 /wallet withdrawal, §7 setWithdrawPassWord): set once,
 * confirmed by typing it twice, changed with the old one; wrong old passwords are counted by
 * the server, which locks for a while after too many.
 *
 *   editing ─password.submit (the rules pass)─▶ saving ─▶ done ─password.change─▶ editing (change)
 *                                                      ─wrong, locked─▶ locked ─password.back─▶ editing
 *                                                      ─refused─▶ editing (said why)
 *
 * The rules are checked here first, in this order: the old one's form (when changing), the new
 * one's form, the two typed alike, the new one not the old. The passwords never enter the
 * context: the submit's event hands them to the save.
 */
import { assertEvent, assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { TEXT_PASSWORD_FORMAT, TEXT_PASSWORD_MISMATCH, TEXT_PASSWORD_SAME, isPasswordFormat } from '../codes/withdraw.codes';
import { PasswordRefusedError } from '../ports/withdraw.port';
import { textOf } from '../shared/error-text';

export interface WithdrawPasswordInput {
  /** A password is set already: it is changed with the old one. */
  hasPassword: boolean;
}

export interface WithdrawPasswordContext {
  mode: 'set' | 'change';
  /** What the typed passwords break (the rules above). */
  problem: string | null;
  /** Why the server refused. */
  error: string | null;
}

export interface PasswordSubmit {
  type: 'password.submit';
  password: string;
  confirmPassword: string;
  /** Changing: the password set now. */
  oldPassword?: string;
}

export type WithdrawPasswordEvent = PasswordSubmit | { type: 'password.change' } | { type: 'password.back' };

/** What the save is given: the new password, and the old one when changing. */
export interface PasswordSave {
  password: string;
  oldPassword?: string;
}

/** What the typed passwords break, in the rules' order (null: nothing). */
export function passwordProblem(mode: WithdrawPasswordContext['mode'], { password, confirmPassword, oldPassword = '' }: Omit<PasswordSubmit, 'type'>): string | null {
  if (mode === 'change' && !isPasswordFormat(oldPassword)) return TEXT_PASSWORD_FORMAT;
  if (!isPasswordFormat(password)) return TEXT_PASSWORD_FORMAT;
  if (password !== confirmPassword) return TEXT_PASSWORD_MISMATCH;
  if (mode === 'change' && password === oldPassword) return TEXT_PASSWORD_SAME;
  return null;
}

export const withdrawPasswordMachine = setup({
  types: {
    input: {} as WithdrawPasswordInput,
    context: {} as WithdrawPasswordContext,
    events: {} as WithdrawPasswordEvent,
    children: {} as { save: 'save' },
  },
  actors: {
    save: fromPromise<void, PasswordSave>(() => Promise.reject(new Error('save not provided'))),
  },
  guards: {
    fine: ({ context, event }) => {
      assertEvent(event, 'password.submit');
      return passwordProblem(context.mode, event) === null;
    },
  },
}).createMachine({
  id: 'withdrawPassword',
  context: ({ input }) => ({ mode: input.hasPassword ? 'change' : 'set', problem: null, error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'password.submit': [
          { guard: 'fine', target: 'saving', actions: assign({ problem: null, error: null }) },
          { actions: assign({ problem: ({ context, event }) => passwordProblem(context.mode, event), error: null }) },
        ],
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context, event }) => {
          assertEvent(event, 'password.submit');
          return context.mode === 'change' ? { password: event.password, oldPassword: event.oldPassword! } : { password: event.password };
        },
        onDone: { target: 'done', actions: assign({ mode: 'change' as const }) },
        onError: [
          {
            guard: ({ event }) => event.error instanceof PasswordRefusedError && event.error.locked,
            target: 'locked',
            actions: assign({ error: ({ event }) => textOf(event.error) }),
          },
          { target: 'editing', actions: assign({ error: ({ event }) => textOf(event.error) }) },
        ],
      },
    },
    done: { on: { 'password.change': { target: 'editing', actions: assign({ mode: 'change' as const }) } } },
    /** Too many wrong old passwords: the error says how long to wait. */
    locked: { on: { 'password.back': { target: 'editing', actions: assign({ error: null }) } } },
  },
});

export type WithdrawPasswordMachine = typeof withdrawPasswordMachine;
