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
 * A child of the session (systemId `calls`), which passes it the intents above; the call's chat
 * subscribes to the IM connection itself, as every talk does. How the call goes is told to the live rooms (`live`), so that a
 * host's private call takes her out of her room and back. The call's system messages (those the
 * session's §4 table gives the call) reach it while it runs and are logged otherwise. Toasts, log
 * lines and rings turned down leave through the `output` action, which the session's composition
 * turns into the session's events.
 */
import { assertEvent, assign, emit, enqueueActions, fromCallback, fromPromise, sendTo, stopChild } from 'xstate';
import { setup } from '../setup';
import type { AnyActorRef } from 'xstate';
import { appCallStateOf } from '../call/app-call-state';
import type { CallRatingMachine } from '../call/call-rating.machine';
import { ratingInputOf } from '../call/call-rating.input';
import { CallText } from '../call/call.texts';
import { callPeerOf } from './calls.types';
import type { CallChildren, CallsContext, CallsEvent, CallsInput, CallsOutput } from './calls.types';
import type { CallSignal } from '../ports/signalling.port';
import { signalLinkMachine } from './signal-link.machine';
import type { CallMachine } from '../call/call.machine';
import { loadedOnUse, spawnLoaded } from '../shared/load-then-spawn';
import type { TalkMachine } from '../talk/talk.machine';

export * from './calls.types';

/** Said when the code of a call could not be fetched (the network is away). */
export const TEXT_CALL_NOT_LOADED = 'The call could not be started. Check the connection and try again.';
/** Logged when the code of the call's chat could not be fetched. */
export const TEXT_CALL_CHAT_NOT_LOADED = 'The call\'s chat could not be loaded';

/** Provided by the composition (session.actors.ts), which loads per-use.actors.ts. */
const notComposed = () => Promise.reject(new Error('The calls were not composed with their per-use children'));


export const callsMachine = setup({
  types: {
    input: {} as CallsInput,
    context: {} as CallsContext,
    events: {} as CallsEvent,
    emitted: {} as CallsOutput,
    children: {} as {
      signalLink: 'signalLink'; rings: 'rings'; loadCall: 'loadCall'; loadCallChat: 'loadTalk'; call: 'call'; callChat: 'callChat';
      rating: 'rating';
    },
  },
  // The composition (session.actors.ts) provides these: they load the per-use code.
  actors: {
    /** The call's and its chat's code, loaded when a call starts or rings. */
    loadCall: fromPromise<CallChildren>(notComposed),
    /** The talk's code (the call's chat is a talk), loaded once the call is connected. */
    loadTalk: fromPromise<TalkMachine>(notComposed),
    /** Logged in to signalling while the calls live (signal-link.machine.ts). */
    signalLink: signalLinkMachine,
    /** Signalling's rings (`call.ringing`), for as long as the calls live. */
    rings: fromCallback<CallsEvent>(() => () => {}),
    /** Turns a ring down as busy (SPEC §3 reject with busy): she is in another call, or its code could not come. */
    busyReply: fromPromise<void, CallSignal>(() => Promise.resolve()),
    /** The call and its chat, spawned from the loaders' answers (machines/shared/load-then-spawn.ts). */
    call: loadedOnUse<CallMachine>(),
    callChat: loadedOnUse<TalkMachine>(),
    /** The rating of the call that took place, spawned from the logic that came with the call's code. */
    rating: loadedOnUse<CallRatingMachine>(),
  },
  guards: {
    /** SPEC §4 -3 type 0: the server names the channel of a call that rings for this person. */
    targetChannel: ({ event }) => event.type === 'call.systemMessage' && event.event.type === 'system.callTargetChannel',
    /** SPEC §4 -3 type 3 of the target channel, while no call of it runs here (it is not hung up here: it never rang). */
    warningOfTarget: ({ context, event }) => event.type === 'call.systemMessage' && event.event.type === 'system.callWarning'
      && context.targetChannel !== null && event.event.channelId === context.targetChannel,
    /** The last call took place (it was connected, on a channel): it can be rated. */
    ratable: ({ context }) => Boolean(context.ratingLogic) && context.lastCall !== null && ratingInputOf(context.lastCall, context.isHost) !== null,
    /** The call's snapshot says it is connected (SPEC §4 App call state). */
    connected: ({ event }) => event.type === 'xstate.snapshot.call' && appCallStateOf(event.snapshot) === 'connected',
  },
  actions: {
    /** What the calls ask the session for; the session's composition turns it into the session's events. */
    output: emit((_, params: CallsOutput) => params),
    /** How the call goes (SPEC §4 App call state), told to the live rooms on every snapshot of the call. */
    toLive: enqueueActions(({ enqueue, event, system }) => {
      const live = system.get('liveRooms') as AnyActorRef | undefined;
      if (!live) return;
      if (event.type === 'xstate.snapshot.call') enqueue.sendTo(live, { type: 'call.changed', state: appCallStateOf(event.snapshot) });
      if (event.type === 'xstate.done.actor.call') enqueue.sendTo(live, { type: 'call.ended' });
    }),
    /** The call's code is there: the call starts with what the ring or the tap said. */
    startCall: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadCall');
      spawnLoaded(enqueue, event.output.call, { id: 'call', syncSnapshot: true, input: context.callInput });
      enqueue.assign({ ratingLogic: event.output.rating });
    }),
    /** The end screen of a call that took place: its rating starts. */
    startRating: enqueueActions(({ context, enqueue }) => {
      if (context.ratingLogic && context.lastCall) {
        spawnLoaded(enqueue, context.ratingLogic, { id: 'rating', input: ratingInputOf(context.lastCall, context.isHost) });
      }
    }),
    /** The chat's code is there: the call's chat starts, with the call's peer. */
    startChat: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadCallChat');
      spawnLoaded(enqueue, event.output, { id: 'callChat', input: { peer: callPeerOf(context), account: context.account } });
    }),
    /** A ring is turned down as busy; the reply runs on its own (nothing waits for it). */
    replyBusy: enqueueActions(({ enqueue }, signal: CallSignal) => enqueue.spawnChild('busyReply', { input: signal })),
    /** No call after all: a ring is turned down as busy, a tap is told why. */
    dropCall: enqueueActions(({ context, enqueue }) => {
      const input = context.callInput;
      if (input?.direction === 'in') enqueue.spawnChild('busyReply', { input: input.signal });
      // Asked for offline, the call's code had no way to come: say what a call started offline says (SPEC §5, §8).
      else enqueue({ type: 'output', params: { type: 'child.toast', text: input?.online === false ? CallText.offline : TEXT_CALL_NOT_LOADED } } as never);
    }),
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
  context: ({ input }) => ({ ...input, callInput: null, lastCall: null, targetChannel: null, ratingLogic: null }),
  // Signalling is logged in, and its rings heard, for as long as the calls live.
  invoke: [
    { id: 'signalLink', src: 'signalLink', input: ({ context }) => ({ account: context.account }) },
    { id: 'rings', src: 'rings' },
  ],
  on: {
    // One call at a time: a ring while a call loads or runs is turned down as busy (idle takes it).
    'call.ringing': { actions: { type: 'replyBusy', params: ({ event }) => event.signal } },
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
      },
      initial: 'none',
      states: {
        none: {},
        /**
         * The last call's end screen, until it is closed (or the next call comes): a call that took
         * place is rated here (SPEC §3 Call rating, child `rating`), one that never connected is not.
         */
        ended: {
          on: { 'call.dismiss': { target: 'none', actions: assign({ lastCall: null }) } },
          initial: 'choosing',
          states: {
            choosing: { always: [{ guard: 'ratable', target: 'rating' }, { target: 'unrated' }] },
            rating: { entry: 'startRating', exit: stopChild('rating') },
            unrated: {},
          },
        },
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
          target: 'idle.ended', actions: ['toLive', 'forgetTarget', assign({ callInput: null, lastCall: ({ event }) => event.output })],
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
        /** The call's chat subscribes to the IM connection itself (talk.machine.ts). */
        chatRunning: {},
        chatFailed: {},
      },
    },
  },
});

export type CallsMachine = typeof callsMachine;
