/**
 * The calls' link to signalling (SPEC §3 signalling, §4 App call state): logged in for as long
 * as the calls live, and again after a failure or a drop.
 *
 *   loggingIn (an RTM token, then the login) ─ok─▶ linked ─signal.disconnected─▶ waiting
 *   loggingIn ─error─▶ waiting ─5 s─▶ loggingIn
 *
 * The link (`link`, a subscription for as long as this machine runs) reports drops and logs out
 * when it stops. Rings are not the link's: the calls subscribe to them themselves. A child of the
 * calls (calls.machine.ts), invoked with them.
 */
import { fromCallback, fromPromise } from 'xstate';
import { setup } from '../setup';

/** Wait before logging in to signalling again after a failure or a drop. */
export const SIGNAL_RELOGIN_MS = 5_000;

export interface SignalLinkInput {
  /** The signed-in person's signalling account. */
  account: string;
}

export type SignalLinkEvent =
  /** The signalling link dropped (the port's fact). */
  | { type: 'signal.disconnected' }
  | { type: 'xstate.done.actor.login' }
  | { type: 'xstate.error.actor.login'; error: unknown };

/** Provided by the composition (calls.actors.ts) over the signalling port. */
const notComposed = () => Promise.reject(new Error('The signal link was not composed with its port'));

export const signalLinkMachine = setup({
  types: {
    input: {} as SignalLinkInput,
    context: {} as SignalLinkInput,
    events: {} as SignalLinkEvent,
  },
  actors: {
    /** A fresh RTM token, then the login with it. */
    login: fromPromise<void, SignalLinkInput>(notComposed),
    /** The link's drops as `signal.disconnected`; logs out when it stops. */
    link: fromCallback<SignalLinkEvent>(() => () => {}),
  },
  delays: {
    relogin: SIGNAL_RELOGIN_MS,
  },
}).createMachine({
  id: 'signalLink',
  context: ({ input }) => input,
  invoke: { id: 'link', src: 'link' },
  initial: 'loggingIn',
  states: {
    loggingIn: {
      invoke: { id: 'login', src: 'login', input: ({ context }) => context, onDone: 'linked', onError: 'waiting' },
    },
    linked: {
      on: { 'signal.disconnected': 'waiting' },
    },
    waiting: {
      after: { relogin: 'loggingIn' },
    },
  },
});

export type SignalLinkMachine = typeof signalLinkMachine;
