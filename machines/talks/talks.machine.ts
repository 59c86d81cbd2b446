/**
 * The talk screen's chat (SPEC §2 /talk): one at a time, opened while the screen shows a peer,
 * run by a per-use child `talk` that lives exactly as long as `open`. It mirrors the calls
 * (calls.machine.ts): the talk's code is not the first screens', it is loaded when a talk opens.
 *
 *   closed ─talk.open─▶ loading (the talk's code) ─done─▶ open (child talk, for `peer`)
 *   loading ─error─▶ notLoaded (the person is told; the screen says so and offers Retry)
 *   notLoaded ─talk.retry | im.connected─▶ loading
 *   any ─talk.open─▶ loading again, for the new peer        any ─talk.close─▶ closed
 *
 * The code fails to load when the network is away: while `notLoaded` the talks subscribe to
 * the IM connection's logins (`im.connected`) and try again on the first one. Each return is
 * one try: the subscription ends with the state, and a try that fails again waits for the
 * next login (no loop while the network stays away).
 *
 * The talk subscribes to the IM connection itself (talk.machine.ts): nothing passes through
 * here. The talk screen's chat has the non-paid user quota (talk/chat-quota.ts): the screen opens
 * it with the day's limit of the app settings (`chatLimit`, loaded beside the session, not in it),
 * and the talk gets it with whether the person is a host. What the talks ask for (a toast) leaves through the `output` action, which the
 * session's composition turns into the session's events. A child of the session (systemId
 * `talks`).
 */
import { assertEvent, assign, emit, enqueueActions, fromPromise, stopChild } from 'xstate';
import { setup } from '../setup';
import { loadedOnUse, spawnLoaded } from '../shared/load-then-spawn';
import type { TalkMachine } from '../talk/talk.machine';
import type { ImConnectionEmitted } from '../im-connection/im-connection.types';
import { factsOf } from '../shared/facts-of';

/** Said when the code of a chat could not be fetched (the network is away). */
export const TEXT_TALK_NOT_LOADED = 'This chat could not be opened. Check the connection and try again.';

export interface TalksInput {
  /** The IM account of the signed-in person. */
  account: string;
  /** Hosts have no chat quota (SPEC §4). */
  isHost?: boolean;
}

export interface TalksContext extends TalksInput {
  /**
   * The peer of the open talk screen, from its opening (its code loading) to its closing, kept
   * while its code could not be loaded (`notLoaded`); null when none is.
   */
  peer: string | null;
  /** The non-paid user quota's limit the screen opened the talk with (0: none). */
  chatLimit: number;
}

export type TalksEvent =
  /** The talk screen opened or closed (SPEC §2 /talk). */
  | { type: 'talk.open'; peer: string; chatLimit?: number }
  | { type: 'talk.close' }
  /** The screen's Retry, after the talk's code could not be loaded. */
  | { type: 'talk.retry' }
  /** The IM connection logged in (again): the network is back. */
  | { type: 'im.connected' }
  /** The talk's code (per-use.actors.ts): loaded when a talk opens. */
  | { type: 'xstate.done.actor.loadTalk'; output: TalkMachine }
  | { type: 'xstate.error.actor.loadTalk'; error: unknown }
  /** The talk asks for a toast (a failure the person should hear of). */
  | { type: 'child.toast'; text: string };

/** What the talks ask the session for. */
export type TalksOutput = { type: 'child.toast'; text: string };

/** Provided by the composition (session.actors.ts), which loads per-use.actors.ts. */
const notComposed = () => Promise.reject(new Error('The talks were not composed with their per-use children'));

export const talksMachine = setup({
  types: {
    input: {} as TalksInput,
    context: {} as TalksContext,
    events: {} as TalksEvent,
    emitted: {} as TalksOutput,
    children: {} as { loadTalk: 'loadTalk'; talk: 'talk'; imFacts: 'imFacts' },
  },
  actors: {
    /** The talk's code, loaded when a talk opens. */
    loadTalk: fromPromise<TalkMachine>(notComposed),
    /** The talk, spawned from the loader's answer (machines/shared/load-then-spawn.ts). */
    talk: loadedOnUse<TalkMachine>(),
    /** The IM connection's logins, while the talk's code waits for the network. */
    imFacts: factsOf<ImConnectionEmitted>('imConnection', ['im.connected']),
  },
  actions: {
    /** What the talks ask the session for; the session's composition turns it into the session's events. */
    output: emit((_, params: TalksOutput) => params),
    /** The talk's code is there: the talk starts for the peer it was opened for. */
    startTalk: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadTalk');
      spawnLoaded(enqueue, event.output, {
        id: 'talk',
        input: { peer: context.peer, account: context.account, quota: { limit: context.chatLimit, isHost: context.isHost ?? false } },
      });
    }),
  },
}).createMachine({
  id: 'talks',
  context: ({ input }) => ({ ...input, peer: null, chatLimit: 0 }),
  on: {
    // Another peer (or the same one again, after a failed load): the open talk, if any, goes first.
    'talk.open': { target: '.loading', reenter: true, actions: assign({ peer: ({ event }) => event.peer, chatLimit: ({ event }) => event.chatLimit ?? 0 }) },
    'talk.close': { target: '.closed', actions: assign({ peer: null }) },
    'child.toast': { actions: { type: 'output', params: ({ event }) => event } },
  },
  initial: 'closed',
  states: {
    closed: {},
    loading: {
      invoke: {
        id: 'loadTalk',
        src: 'loadTalk',
        onDone: { target: 'open', actions: 'startTalk' },
        onError: { target: 'notLoaded', actions: { type: 'output', params: { type: 'child.toast', text: TEXT_TALK_NOT_LOADED } } },
      },
    },
    /** The talk's code could not be fetched: tried again on Retry or once the IM connection is back. */
    notLoaded: {
      invoke: { id: 'imFacts', src: 'imFacts' },
      on: { 'talk.retry': 'loading', 'im.connected': 'loading' },
    },
    /** The talk lives exactly as long as this state. */
    open: { exit: stopChild('talk') },
  },
});

export type TalksMachine = typeof talksMachine;
