/**
 * A host's collection methods (SPEC §2 /wallet addCollectionMethod and collectionInfo, §7
 * withdrawAccountList and addWithdrawAccount): where withdrawals are paid, listed masked, and
 * a new one entered with its kind's rules (machines/codes/withdraw.codes.ts).
 *
 *   loading ─▶ list | (input.adding, room for one more) editing         ─error─▶ failed ─methods.retry─▶ loading
 *   list ─methods.add─▶ editing (a fresh draft; refused at MAX_ACCOUNTS)
 *   editing ─methods.kind | methods.field─▶ editing;  ─methods.cancel─▶ list
 *           ─methods.save (the draft passes its rules)─▶ saving ─▶ saved (first in the list)
 *                                                               ─refused─▶ editing (the fields, or why)
 *   saved ─methods.add─▶ editing;  ─methods.list─▶ list
 *
 * The draft's rules are checked here first, so most mistakes are said at once and field by
 * field; the server checks them again (and what only it knows: a method added already). A
 * second save while one is saved has no transition: it is dropped.
 */
import { assertEvent, assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { MAX_ACCOUNTS, TEXT_TOO_MANY_ACCOUNTS, accountProblems, normalisedDraft } from '../codes/withdraw.codes';
import type { AccountDraft, AccountField, AccountKind, AccountProblems } from '../codes/withdraw.codes';
import { AccountRefusedError } from '../ports/withdraw.port';
import type { CollectionMethod, WithdrawConfig } from '../ports/withdraw.port';
import { textOf } from '../shared/error-text';

export interface CollectionMethodsInput {
  /** The add view: a new method is entered at once after the load. */
  adding?: boolean;
}

/** What the load answers: the methods and the rules (the kinds and e-wallets offered). */
export interface CollectionMethodsLoad {
  accounts: CollectionMethod[];
  config: Pick<WithdrawConfig, 'kinds' | 'providers'>;
}

export interface CollectionMethodsContext {
  /** Whether the load leads to a new method at once (the add view). */
  adding: boolean;
  accounts: CollectionMethod[];
  kinds: AccountKind[];
  providers: string[];
  draft: AccountDraft;
  problems: AccountProblems | null;
  error: string | null;
  /** The method just added. */
  added: CollectionMethod | null;
}

export type CollectionMethodsEvent =
  | { type: 'methods.retry' }
  | { type: 'methods.add' }
  | { type: 'methods.kind'; kind: AccountKind }
  | { type: 'methods.field'; field: AccountField; value: string }
  | { type: 'methods.save' }
  | { type: 'methods.cancel' }
  | { type: 'methods.list' };

/** An empty draft of the first kind offered. */
export const freshDraft = (kinds: readonly AccountKind[]): AccountDraft =>
  ({ kind: kinds[0] ?? 'bank', holderName: '', institution: '', accountNumber: '', chain: '' });

/** The problems without the one of `field` (null when none is left). */
function without(problems: AccountProblems | null, field: AccountField): AccountProblems | null {
  if (!problems) return null;
  const { [field]: _, ...rest } = problems;
  return Object.keys(rest).length ? rest : null;
}

/** The load's answer, handed to `loaded` as its params (its event is typed at the invoke, not in the machine's events). */
const loaded = { type: 'loaded', params: ({ event }: { event: { output: CollectionMethodsLoad } }) => event.output } as const;

export const collectionMethodsMachine = setup({
  types: {
    input: {} as CollectionMethodsInput,
    context: {} as CollectionMethodsContext,
    events: {} as CollectionMethodsEvent,
    children: {} as { load: 'load'; save: 'save' },
  },
  actors: {
    load: fromPromise<CollectionMethodsLoad>(() => Promise.reject(new Error('load not provided'))),
    save: fromPromise<CollectionMethod, AccountDraft>(() => Promise.reject(new Error('save not provided'))),
  },
  guards: {
    full: ({ context }) => context.accounts.length >= MAX_ACCOUNTS,
    offered: ({ context, event }) => {
      assertEvent(event, 'methods.kind');
      return context.kinds.includes(event.kind);
    },
    draftFine: ({ context }) => accountProblems(context.draft, context.providers) === null,
  },
  actions: {
    loaded: assign((_, { accounts, config }: CollectionMethodsLoad) => ({ accounts, kinds: config.kinds, providers: config.providers })),
    startAdding: assign(({ context }) => ({ draft: freshDraft(context.kinds), problems: null, error: null })),
    refuseFull: assign({ error: TEXT_TOO_MANY_ACCOUNTS }),
  },
}).createMachine({
  id: 'collectionMethods',
  context: ({ input }) => ({
    adding: input.adding ?? false, accounts: [], kinds: [], providers: [], draft: freshDraft([]), problems: null, error: null, added: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      entry: assign({ error: null }),
      invoke: {
        id: 'load',
        src: 'load',
        onDone: [
          // The add view with no room for one more: the list says why.
          { guard: ({ context, event }) => context.adding && event.output.accounts.length >= MAX_ACCOUNTS, target: 'list', actions: [loaded, 'refuseFull'] },
          { guard: ({ context }) => context.adding, target: 'editing', actions: [loaded, 'startAdding'] },
          { target: 'list', actions: loaded },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => textOf(event.error) }) },
      },
    },
    failed: { on: { 'methods.retry': 'loading' } },
    list: {
      on: {
        'methods.add': [
          { guard: 'full', actions: 'refuseFull' },
          { target: 'editing', actions: 'startAdding' },
        ],
      },
    },
    editing: {
      on: {
        'methods.kind': { guard: 'offered', actions: assign(({ context, event }) => ({ draft: { ...context.draft, kind: event.kind }, problems: null })) },
        'methods.field': {
          actions: assign(({ context, event }) => ({ draft: { ...context.draft, [event.field]: event.value }, problems: without(context.problems, event.field) })),
        },
        'methods.save': [
          { guard: 'draftFine', target: 'saving', actions: assign({ problems: null, error: null }) },
          { actions: assign({ problems: ({ context }) => accountProblems(context.draft, context.providers) }) },
        ],
        'methods.cancel': { target: 'list', actions: assign({ problems: null, error: null }) },
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => normalisedDraft(context.draft),
        onDone: { target: 'saved', actions: assign(({ context, event }) => ({ added: event.output, accounts: [event.output, ...context.accounts] })) },
        onError: [
          // The server named the fields it refused: they show beside them.
          {
            guard: ({ event }) => event.error instanceof AccountRefusedError && event.error.problems !== null,
            target: 'editing',
            actions: assign({ problems: ({ event }) => (event.error instanceof AccountRefusedError ? event.error.problems : null) }),
          },
          { target: 'editing', actions: assign({ error: ({ event }) => textOf(event.error) }) },
        ],
      },
    },
    saved: {
      on: {
        'methods.add': [
          { guard: 'full', actions: 'refuseFull' },
          { target: 'editing', actions: 'startAdding' },
        ],
        'methods.list': 'list',
      },
    },
  },
});

export type CollectionMethodsMachine = typeof collectionMethodsMachine;
