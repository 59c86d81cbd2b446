/**
 * A host's withdrawal (SPEC §2 /wallet withdrawal, §6 host: withdrawal, §7 getAnchorWithDrawConfig
 * and applyWithdrawV2): the rules, the amount and where it goes, the password at apply, and
 * what came of it.
 *
 *   loading ─▶ failed ─withdrawal.retry─▶ loading
 *           ─▶ noPassword | noAccount | closed (in this order; each ─withdrawal.reload─▶ loading)
 *           ─▶ editing ─withdrawal.next (amount and account fine)─▶ confirming (the quote; the password is asked)
 *   confirming ─withdrawal.submit (6 digits)─▶ applying ─▶ applied ─withdrawal.again─▶ loading
 *                                                      ─wrong password─▶ confirming | (locked) locked
 *                                                      ─no answer─▶ confirming (the key kept)
 *                                                      ─refused─▶ refused
 *   confirming ─withdrawal.back─▶ editing (or loading after an apply that got no answer)
 *   refused | locked ─withdrawal.back─▶ loading
 *
 * One apply is one intent: its key is made at the first submit and sent again by the submit
 * after an apply that got no answer (the server takes the amount once). An answer ends the
 * intent. Going back after an unanswered apply reloads, so the balance shows whether it was
 * made. The password never enters the context: the submit's event hands it to the apply.
 */
import { assertEvent, assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { TEXT_CHOOSE_ACCOUNT, TEXT_PASSWORD_FORMAT, amountProblem, isPasswordFormat, textDays } from '../codes/withdraw.codes';
import { PasswordRefusedError } from '../ports/withdraw.port';
import type { CollectionMethod, HostBalance, WithdrawConfig, WithdrawRequest, WithdrawalRecord } from '../ports/withdraw.port';
import { UnansweredError, newIntentKey } from '../shared/intent-key';
import { textOf } from '../shared/error-text';

export interface WithdrawalInput {
  /** A collection method to choose at once (one just added). */
  accountId?: number;
}

/** What the load answers: the rules, the collection methods, the balance and the clock's time. */
export interface WithdrawalLoad {
  config: WithdrawConfig;
  accounts: CollectionMethod[];
  balance: HostBalance;
  now: number;
}

export interface WithdrawalContext {
  config: WithdrawConfig | null;
  accounts: CollectionMethod[];
  balance: HostBalance | null;
  /** The clock's time at the load (the allowed days are checked against it). */
  now: number;
  amountText: string;
  accountId: number | null;
  /** Why the amount or the account cannot go on. */
  problem: string | null;
  /** A load that failed, or a refused apply. */
  error: string | null;
  passwordError: string | null;
  /** The apply's key: made at the first submit, kept after an apply that got no answer. */
  key: string | null;
  record: WithdrawalRecord | null;
}

export type WithdrawalEvent =
  | { type: 'withdrawal.retry' }
  | { type: 'withdrawal.reload' }
  | { type: 'withdrawal.amount'; text: string }
  | { type: 'withdrawal.all' }
  | { type: 'withdrawal.account'; id: number }
  | { type: 'withdrawal.next' }
  | { type: 'withdrawal.submit'; password: string }
  | { type: 'withdrawal.back' }
  | { type: 'withdrawal.again' };

/** The amount as entered (a whole number of diamonds when it is one). */
export const amountOf = (context: Pick<WithdrawalContext, 'amountText'>): number => Number(context.amountText.trim() || NaN);

/** Why the amount and account cannot go on (null: they can). */
export function problemOf(context: WithdrawalContext): string | null {
  if (!context.config || !context.balance) return null;
  return amountProblem(context.config, amountOf(context), context.balance.income, context.now)
    ?? (context.accounts.some((a) => a.id === context.accountId) ? null : TEXT_CHOOSE_ACCOUNT);
}

/** The account to choose: the one chosen (or asked for) if still there, else the newest. */
function chosenAmong(accounts: readonly CollectionMethod[], id: number | null): number | null {
  if (accounts.some((a) => a.id === id)) return id;
  const newest = [...accounts].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)[0];
  return newest?.id ?? null;
}

/** The load's answer, handed to `loaded` as its params (its event is typed at the invoke, not in the machine's events). */
const loaded = { type: 'loaded', params: ({ event }: { event: { output: WithdrawalLoad } }) => event.output } as const;

const isRefusal = (error: unknown, locked: boolean) => error instanceof PasswordRefusedError && error.locked === locked;

export const withdrawalMachine = setup({
  types: {
    input: {} as WithdrawalInput,
    context: {} as WithdrawalContext,
    events: {} as WithdrawalEvent,
    children: {} as { load: 'load'; apply: 'apply' },
  },
  actors: {
    load: fromPromise<WithdrawalLoad>(() => Promise.reject(new Error('load not provided'))),
    apply: fromPromise<WithdrawalRecord, WithdrawRequest>(() => Promise.reject(new Error('apply not provided'))),
  },
  guards: {
    canGoOn: ({ context }) => problemOf(context) === null,
    knownAccount: ({ context, event }) => {
      assertEvent(event, 'withdrawal.account');
      return context.accounts.some((a) => a.id === event.id);
    },
    passwordFormat: ({ event }) => {
      assertEvent(event, 'withdrawal.submit');
      return isPasswordFormat(event.password);
    },
    /** The last apply got no answer: it may have been made. */
    unanswered: ({ context }) => context.key !== null,
  },
  actions: {
    loaded: assign(({ context }, { config, accounts, balance, now }: WithdrawalLoad) => ({
      config, accounts, balance, now, accountId: chosenAmong(accounts, context.accountId),
    })),
    forgetKey: assign({ key: null }),
  },
}).createMachine({
  id: 'withdrawal',
  context: ({ input }) => ({
    config: null, accounts: [], balance: null, now: 0, amountText: '', accountId: input.accountId ?? null,
    problem: null, error: null, passwordError: null, key: null, record: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      entry: assign({ error: null, problem: null, passwordError: null }),
      invoke: {
        id: 'load',
        src: 'load',
        onDone: [
          // A password first, then somewhere for the money to go, then an open day.
          { guard: ({ event }) => !event.output.config.hasPassword, target: 'noPassword', actions: loaded },
          { guard: ({ event }) => event.output.accounts.length === 0, target: 'noAccount', actions: loaded },
          { guard: ({ event }) => !event.output.config.openToday, target: 'closed', actions: loaded },
          { target: 'editing', actions: loaded },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => textOf(event.error) }) },
      },
    },
    failed: { on: { 'withdrawal.retry': 'loading' } },
    noPassword: { on: { 'withdrawal.reload': 'loading' } },
    noAccount: { on: { 'withdrawal.reload': 'loading' } },
    closed: {
      entry: assign({ problem: ({ context }) => textDays(context.config?.allowedDays ?? []) }),
      on: { 'withdrawal.reload': 'loading' },
    },
    editing: {
      on: {
        'withdrawal.amount': { actions: assign(({ event }) => ({ amountText: event.text, problem: null })) },
        'withdrawal.all': { actions: assign(({ context }) => ({ amountText: String(context.balance?.withdrawable ?? 0), problem: null })) },
        'withdrawal.account': { guard: 'knownAccount', actions: assign(({ event }) => ({ accountId: event.id, problem: null })) },
        'withdrawal.next': [
          { guard: 'canGoOn', target: 'confirming', actions: assign({ problem: null, passwordError: null }) },
          { actions: assign({ problem: ({ context }) => problemOf(context) }) },
        ],
      },
    },
    /** The quote shows (quoteOf) and the password is asked. */
    confirming: {
      on: {
        'withdrawal.submit': [
          {
            guard: 'passwordFormat',
            target: 'applying',
            // A new intent, unless the last apply got no answer: then its key goes again.
            actions: assign(({ context }) => ({ key: context.key ?? newIntentKey(), passwordError: null })),
          },
          { actions: assign({ passwordError: TEXT_PASSWORD_FORMAT }) },
        ],
        'withdrawal.back': [
          // The apply that got no answer may have been made: the balance, reloaded, shows it.
          { guard: 'unanswered', target: 'loading', actions: 'forgetKey' },
          { target: 'editing', actions: 'forgetKey' },
        ],
      },
    },
    /** A second submit (a double tap) has no transition here: it is dropped. */
    applying: {
      invoke: {
        id: 'apply',
        src: 'apply',
        input: ({ context, event }) => {
          assertEvent(event, 'withdrawal.submit');
          return { idempotencyKey: context.key!, amount: amountOf(context), accountId: context.accountId!, password: event.password };
        },
        onDone: { target: 'applied', actions: ['forgetKey', assign({ record: ({ event }) => event.output })] },
        onError: [
          { guard: ({ event }) => isRefusal(event.error, true), target: 'locked', actions: ['forgetKey', assign({ error: ({ event }) => textOf(event.error) })] },
          { guard: ({ event }) => isRefusal(event.error, false), target: 'confirming', actions: ['forgetKey', assign({ passwordError: ({ event }) => textOf(event.error) })] },
          // No answer: the apply may have been made; the next submit sends the same key.
          { guard: ({ event }) => event.error instanceof UnansweredError, target: 'confirming', actions: assign({ passwordError: ({ event }) => textOf(event.error) }) },
          { target: 'refused', actions: ['forgetKey', assign({ error: ({ event }) => textOf(event.error) })] },
        ],
      },
    },
    applied: { on: { 'withdrawal.again': { target: 'loading', actions: assign({ amountText: '', record: null }) } } },
    refused: { on: { 'withdrawal.back': 'loading' } },
    /** Too many wrong passwords: withdrawals are locked for a while (the error says how long). */
    locked: { on: { 'withdrawal.back': 'loading' } },
  },
});

export type WithdrawalMachine = typeof withdrawalMachine;
