/**
 * The session's calls (SPEC §2 the call screens and the in-call chat, §4 App call state): one at
 * a time, the person's tap (`call.start`) or someone's ring (`call.ringing`), each run by a
 * per-use child `call` that lives exactly as long as `running`.
 *
 *   idle ─call.start | call.ringing─▶ loading (the call's code) ─done─▶ running ─call done─▶ idle (lastCall kept until call.dismiss)
 *   loading ─error─▶ idle (a ring is turned down as busy; a tap is told why)
 *   running: chatWaiting ─call connected─▶ chatLoading (the talk's code) ─done─▶ chatRunning (child callChat)
 *                                           chatLoading ─error─▶ chatFailed (the call goes on without its chat)
 *   loading | running ─call.ringing─▶ the ring is turned down as busy
 *   running ─call.systemMessage─▶ to the call (logged in any other state)
 *   any ─-3 type 0─▶ the target channel is kept (SPEC §4: the server's word that a call rings for this person)
 *   not running ─-3 type 3 of the target channel─▶ the person is told (a call that never rang here: the ring
 *                was lost, the server ended it) and the target is forgotten; its ring, or its call's end, forgets it too
 *
 * The call's code is not the first screens': it is loaded when a call starts or rings (`loadCall`,
 * provided by the session's composition), and the call is spawned from the loader's answer with
 * the input the tap or the ring gave, kept meanwhile in context.
 *
 * The call comes with its own chat with the peer (child `callChat`, a talk like the talk
 * screen's, over the same IM connection): a second child rather than the talk screen's one,
 * because a host may have another person's chat open when the call comes, and the talk screen
 * closes its chat when it goes while the call's chat must live as long as the call. It starts
 * once the call is connected: only the connected call shows it, and its history and lookups
 * would otherwise compete with setting the call up.
 *
 * A child of the session (systemId `calls`), which passes it the intents above and what the
 * call's chat hears (`talk.*`). How the call goes is told to the live rooms (`live`), so that a
 * host's private call takes her out of her room and back. The call's system messages (those the
 * session's §4 table gives the call) reach it while it runs and are logged otherwise. Toasts, log
 * lines and rings turned down leave through the `output` action, which the session's composition
 * turns into the session's events.
 */
import { assertEvent, assign, emit, enqueueActions, fromPromise, sendTo, stopChild } from 'xstate';
import { setup } from '../setup';
import type { AnyActorRef } from 'xstate';
import { appCallStateOf } from '../call/app-call-state';
import { CallText } from '../call/call.texts';
import type { CallInput } from '../call/call.machine';
import type { CallsContext, CallsEvent, CallsInput, CallsOutput } from './calls.types';
import type { CallChildren, TalkLogic } from './per-use.actors';

export * from './calls.types';

/** Said when the code of a call could not be fetched (the network is away). */
export const TEXT_CALL_NOT_LOADED = 'The call could not be started. Check the connection and try again.';
/** Logged when the code of the call's chat could not be fetched. */
export const TEXT_CALL_CHAT_NOT_LOADED = 'The call\'s chat could not be loaded';

/** Provided by the composition (session.actors.ts), which loads per-use.actors.ts. */
const notComposed = () => Promise.reject(new Error('The calls were not composed with their per-use children'));

/** The account of a call's peer, the one its chat is with. */
export const peerAccountOf = (input: CallInput): string => (input.direction === 'out' ? input.peer.account : input.signal.from);

/** The peer of the call under way, from the loading of its code to its end; null while idle. */
export const callPeerOf = (context: CallsContext): string | null => (context.callInput ? peerAccountOf(context.callInput) : null);

export const callsMachine = setup({
  types: {
    input: {} as CallsInput,
    context: {} as CallsContext,
    events: {} as CallsEvent,
    emitted: {} as CallsOutput,
  },
  // The composition (session.actors.ts) provides these: they load the per-use code.
  actors: {
    /** The call's and its chat's code, loaded when a call starts or rings. */
    loadCall: fromPromise<CallChildren>(notComposed),
    /** The talk's code (the call's chat is a talk), loaded once the call is connected. */
    loadTalk: fromPromise<TalkLogic>(notComposed),
  },
  guards: {
    /** SPEC §4 -3 type 0: the server names the channel of a call that rings for this person. */
    targetChannel: ({ event }) => event.type === 'call.systemMessage' && event.event.type === 'system.callTargetChannel',
    /** SPEC §4 -3 type 3 of the target channel, while no call of it runs here (it is not hung up here: it never rang). */
    warningOfTarget: ({ context, event }) => event.type === 'call.systemMessage' && event.event.type === 'system.callWarning'
      && context.targetChannel !== null && event.event.channelId === context.targetChannel,
    /** The call's snapshot says it is connected (SPEC §4 App call state). */
    connected: ({ event }) => event.type === 'xstate.snapshot.call' && appCallStateOf(event.snapshot) === 'connected',
  },
  actions: {
    /** What the calls ask the session for; the session's composition turns it into the session's events. */
    output: emit((_, params: CallsOutput) => params),
    /** How the call goes (SPEC §4 App call state), told to the live rooms on every snapshot of the call. */
    toLive: enqueueActions(({ enqueue, event, system }) => {
      const live = system.get('live') as AnyActorRef | undefined;
      if (!live) return;
      if (event.type === 'xstate.snapshot.call') enqueue.sendTo(live, { type: 'call.changed', state: appCallStateOf(event.snapshot) });
      if (event.type === 'xstate.done.actor.call') enqueue.sendTo(live, { type: 'call.ended' });
    }),
    // The loaded logic is spawned as it is (it is not one of `actors`, hence `as never`).
    /** The call's code is there: the call starts with what the ring or the tap said. */
    startCall: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadCall');
      enqueue.spawnChild(event.output.call as never, { id: 'call', syncSnapshot: true, input: context.callInput } as never);
    }),
    /** The chat's code is there: the call's chat starts, with the call's peer. */
    startChat: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadCallChat');
      enqueue.spawnChild(event.output as never, { id: 'callChat', input: { peer: callPeerOf(context), account: context.account } } as never);
    }),
    /** No call after all: a ring is turned down as busy, a tap is told why. */
    dropCall: enqueueActions(({ context, enqueue }) => {
      const input = context.callInput;
      if (input?.direction === 'in') enqueue({ type: 'output', params: { type: 'child.busy', signal: input.signal } } as never);
      // Asked for offline, the call's code had no way to come: say what a call started offline says (SPEC §5, §8).
      else enqueue({ type: 'output', params: { type: 'child.toast', text: input?.online === false ? CallText.offline : TEXT_CALL_NOT_LOADED } } as never);
    }),
    toChat: sendTo('callChat', ({ event }) => event),
    setTarget: assign({
      targetChannel: ({ context, event }) =>
        (event.type === 'call.systemMessage' && event.event.type === 'system.callTargetChannel' ? event.event.channelId : context.targetChannel),
    }),
    /** The target channel is forgotten once its ring came or its call ended here. */
    forgetTarget: assign({
      targetChannel: ({ context, event }) => {
        const channel = event.type === 'call.ringing' ? event.signal.channelId
          : event.type === 'xstate.done.actor.call' ? event.output.channelId : null;
        return channel !== null && channel === context.targetChannel ? null : context.targetChannel;
      },
    }),
    /** The warning of a call that never rang here is told, and its channel forgotten. */
    tellMissed: enqueueActions(({ enqueue, event }) => {
      if (event.type !== 'call.systemMessage' || event.event.type !== 'system.callWarning') return;
      if (event.event.text) enqueue({ type: 'output', params: { type: 'child.toast', text: event.event.text } } as never);
      enqueue.assign({ targetChannel: null });
    }),
  },
}).createMachine({
  id: 'calls',
  context: ({ input }) => ({ ...input, callInput: null, lastCall: null, targetChannel: null }),
  on: {
    // One call at a time: a ring while a call loads or runs is turned down as busy (idle takes it).
    'call.ringing': { actions: { type: 'output', params: ({ event }) => ({ type: 'child.busy', signal: event.signal }) } },
    // The call's system messages have no one to go to unless it runs (`running` takes them), but the
    // target channel (-3 type 0) and a warning of it that comes while no call of it runs.
    'call.systemMessage': [
      { guard: 'targetChannel', actions: 'setTarget' },
      { guard: 'warningOfTarget', actions: 'tellMissed' },
      {
        actions: { type: 'output', params: ({ event }) => ({ type: 'child.log', text: `System message for call, which is not running: ${event.event.type}` }) },
      },
    ],
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'call.start': {
          target: 'loading',
          actions: assign({
            lastCall: null,
            callInput: ({ context, event }) => ({
              direction: 'out' as const, online: event.online, isHost: context.isHost, account: context.account, peer: event.peer, callType: event.callType,
            }),
          }),
        },
        'call.ringing': {
          target: 'loading',
          actions: [
            'forgetTarget',
            assign({
              lastCall: null,
              callInput: ({ context, event }) => ({
                direction: 'in' as const, online: true, isHost: context.isHost, account: context.account, signal: event.signal,
              }),
            }),
          ],
        },
        'call.dismiss': { actions: assign({ lastCall: null }) },
      },
    },
    loading: {
      invoke: {
        id: 'loadCall',
        src: 'loadCall',
        onDone: { target: 'running', actions: 'startCall' },
        onError: { target: 'idle', actions: ['dropCall', assign({ callInput: null })] },
      },
    },
    running: {
      // The call and its chat live exactly as long as this state.
      exit: [stopChild('call'), stopChild('callChat')],
      on: {
        'xstate.snapshot.call': { actions: 'toLive' },
        'call.systemMessage': [
          { guard: 'targetChannel', actions: 'setTarget' },
          { actions: sendTo('call', ({ event }) => event.event) },
        ],
        'xstate.done.actor.call': {
          target: 'idle', actions: ['toLive', 'forgetTarget', assign({ callInput: null, lastCall: ({ event }) => event.output })],
        },
      },
      // The call's chat: it waits for the call to be connected, then for its code.
      initial: 'chatWaiting',
      states: {
        chatWaiting: {
          // Taken, this replaces the transition of `running`: the live rooms hear of this snapshot here.
          on: { 'xstate.snapshot.call': { guard: 'connected', target: 'chatLoading', actions: 'toLive' } },
        },
        chatLoading: {
          invoke: {
            id: 'loadCallChat',
            src: 'loadTalk',
            onDone: { target: 'chatRunning', actions: 'startChat' },
            // The call's own code came, so this one can hardly fail to; if it did, the call goes on without its chat.
            onError: { target: 'chatFailed', actions: { type: 'output', params: { type: 'child.log', text: TEXT_CALL_CHAT_NOT_LOADED } } },
          },
        },
        chatRunning: {
          on: {
            'talk.incoming': { actions: 'toChat' },
            'talk.connected': { actions: 'toChat' },
            'talk.sent': { actions: 'toChat' },
            'talk.sendFailed': { actions: 'toChat' },
          },
        },
        chatFailed: {},
      },
    },
  },
});

export type CallsMachine = typeof callsMachine;
