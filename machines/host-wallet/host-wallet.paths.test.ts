/** Generated-path tests of the host's wallet at a glance (SPEC §7 myWallet, myBalance) over a manual port. */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { FakeWithdrawPort } from '../ports/withdraw.fake';
import type { HostWalletSummary } from '../ports/withdraw.port';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { composeHostWallet } from './host-wallet.actors';
import { hostWalletMachine } from './host-wallet.machine';
import type { HostWalletContext } from './host-wallet.machine';

const summary: HostWalletSummary = { income: 3000, held: 2000, withdrawable: 3000, earned: 5000, paidOut: 0, diamonds: 40, hasPassword: true };

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.summary', output: summary },
  { type: 'xstate.error.actor.summary', error: new Error('The server is away.') },
  { type: 'hostWallet.refresh' },
];

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const actor = createActor(hostWalletMachine.provide({ actors: { summary: fromPromise(() => pending.add('summary', [])) } }), { inspect });
  actor.start();
  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const before = actor.getSnapshot();
    if (e.type === 'xstate.done.actor.summary') pending.latest('summary').resolve(e.output);
    else if (e.type === 'xstate.error.actor.summary') pending.latest('summary').reject(e.error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    const context: HostWalletContext = snapshot.context;
    // A refresh keeps what was shown; a failure says why and keeps it too.
    if (e.type === 'hostWallet.refresh' || e.type === 'xstate.error.actor.summary') expect(context.summary).toBe(before.context.summary);
    if (snapshot.matches('ready')) expect(context).toEqual({ summary, error: null });
    if (snapshot.matches('failed')) expect(context.error).toBe('The server is away.');
  }
  actor.stop();
}

describeGeneratedPaths('hostWallet', hostWalletMachine, {
  events: samples,
  serializeContext: (c) => [(c as HostWalletContext).summary !== null, (c as HostWalletContext).error !== null],
  minPaths: 6,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§7 myWallet] the host\'s wallet', () => {
  it('composed over the port: the summary as the ledger has it', async () => {
    const port = new FakeWithdrawPort('auto', { income: 5000, diamonds: 40 });
    const actor = createActor(composeHostWallet({ withdraw: port })).start();
    await flush();
    expect(actor.getSnapshot().context.summary).toEqual({ income: 5000, held: 0, withdrawable: 5000, earned: 5000, paidOut: 0, diamonds: 40, hasPassword: false });
    actor.stop();
  });
});
