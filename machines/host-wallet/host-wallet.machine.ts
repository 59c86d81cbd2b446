/**
 * A host's wallet at a glance (SPEC §2 /wallet for a host, §7 myWallet and myBalance): the
 * income, what is held and what may be withdrawn, all earned and paid out, and whether a
 * withdrawal password is set.
 *
 *   loading ─▶ ready | failed;  ready | failed ─hostWallet.refresh─▶ loading
 *
 * A refresh keeps the summary shown while the new one loads.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import type { HostWalletSummary } from '../ports/withdraw.port';
import { textOf } from '../shared/error-text';

export interface HostWalletContext {
  summary: HostWalletSummary | null;
  error: string | null;
}

export type HostWalletEvent = { type: 'hostWallet.refresh' };

export const hostWalletMachine = setup({
  types: {
    context: {} as HostWalletContext,
    events: {} as HostWalletEvent,
    children: {} as { summary: 'summary' },
  },
  actors: {
    summary: fromPromise<HostWalletSummary>(() => Promise.reject(new Error('summary not provided'))),
  },
}).createMachine({
  id: 'hostWallet',
  context: { summary: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'summary',
        src: 'summary',
        onDone: { target: 'ready', actions: assign({ summary: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => textOf(event.error) }) },
      },
    },
    ready: { on: { 'hostWallet.refresh': 'loading' } },
    failed: { on: { 'hostWallet.refresh': 'loading' } },
  },
});

export type HostWalletMachine = typeof hostWalletMachine;
