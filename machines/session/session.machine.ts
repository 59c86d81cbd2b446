/**
 * The signed-in session: owner of the long-lived children of SPEC §4 — IM connection,
 * presence, the incoming-message banner and, for hosts, the idle-host rule — and the router
 * of what they report.
 *
 *   active.{hosting | viewing} ─session.leave─▶ leaving (presence sends offline, ≤ 5 s) ─presence done─▶ left
 *   active ─im.sessionEnded─▶ ended (kicked elsewhere or IM unrecoverable)
 *
 * A call (child `call`) comes with its own chat with the peer (child `callChat`, a talk like
 * the talk screen's, over the same IM connection): a second child rather than the talk screen's
 * one, because a host may have another person's chat open when the call comes, and the talk
 * screen closes its chat when it goes while the call's chat must live as long as the call. It
 * starts once the call is connected (`pendingCallChat` until then): only the connected call shows
 * it, and its history and lookups would otherwise compete with setting the call up.
 * The talk's and the call's code is not the first screens': it is loaded when a talk opens or a
 * call starts or rings (`loadTalk`, `loadCall`), and the child is spawned from the loader's
 * answer with the input kept meanwhile in context (`pendingTalk`, `pendingCall`).
 *
 * Live rooms are the `live` child's (live-rooms.machine.ts): the session passes it the screens'
 * live.* intents and a beauty failure, and how its call goes (the call child sends its
 * snapshots, `syncSnapshot`), so that a host's private call takes her out of her room and back.
 *
 * Messages become banners unless a chat shows them; system notifications go through the §4
 * table to the machine that owns them; unread totals, navigation and log lines leave through the `output` action as
 * emitted events (`SessionOutput`), which the root actor's composition turns into events
 * for itself.
 */
import { assertEvent, assign, emit, enqueueActions, fromCallback, fromPromise, not, sendTo, setup, spawnChild, stopChild } from 'xstate';
import type { AnyActorRef } from 'xstate';
import { CallText } from '../call/call.texts';
import { bannerMachine } from '../banner/banner.machine';
import { idleHostMachine } from '../idle-host/idle-host.machine';
import { imConnectionMachine } from '../im-connection/im-connection.machine';
import { conversationsMachine } from '../conversations/conversations.machine';
import { appCallStateOf } from '../call/app-call-state';
import type { CallSummary } from '../call/call.types';
import { presenceMachine } from '../presence/presence.machine';
import { routeSystemMessage } from '../system-messages/system-messages';
import { liveRoomsMachine } from './live-rooms.machine';
import { bannerItemFor } from './session.types';
import type { SessionContext, SessionEvent, SessionInput, SessionOutput, SignalLinkEvent } from './session.types';
import type { CallChildren, TalkLogic } from './per-use.actors';

export * from './session.types';

/** The call's chat runs: a call is under way, its code came, and its chat started (once it was connected). */
const callChatRuns = (c: SessionContext) => c.callPeer !== null && c.pendingCall === null && c.pendingCallChat === null;

/** Said when the code of a chat or a call could not be fetched (the network is away). */
export const TEXT_TALK_NOT_LOADED = 'This chat could not be opened. Check the connection and try again.';
export const TEXT_CALL_NOT_LOADED = 'The call could not be started. Check the connection and try again.';

/** Provided by the composition (session.actors.ts), which loads per-use.actors.ts. */
const notComposed = () => Promise.reject(new Error('The session was not composed with its per-use children'));

/** The children that hear of the app's visibility. */
const VISIBILITY_LISTENERS = ['imConnection', 'presence', 'idleHost'] as const;

export const sessionMachine = setup({
  types: {
    input: {} as SessionInput,
    context: {} as SessionContext,
    events: {} as SessionEvent,
    emitted: {} as SessionOutput,
  },
  // The composition (session.actors.ts) provides these composed with their ports.
  actors: {
    imConnection: imConnectionMachine,
    presence: presenceMachine,
    banner: bannerMachine,
    idleHost: idleHostMachine,
    conversations: conversationsMachine,
    live: liveRoomsMachine,
    /** The talk's code, loaded when a talk opens (per-use.actors.ts). */
    loadTalk: fromPromise<TalkLogic>(notComposed),
    /** The call's and its chat's code, loaded when a call starts or rings. */
    loadCall: fromPromise<CallChildren>(notComposed),
    /** Signalling login and incoming rings (`call.ringing`); told `busy` to turn a ring down. */
    signalLink: fromCallback<SignalLinkEvent, { account: string }>(() => () => {}),
  },
  actions: {
    /** A message of the open talk or of the call's chat goes there; any other incoming one shows as a banner. */
    toBanner: enqueueActions(({ context, enqueue, event, system }) => {
      if (event.type !== 'im.message') return;
      const toTalk = context.talkPeer !== null && event.message.sessionId === context.talkPeer;
      const toCallChat = context.callPeer !== null && event.message.sessionId === context.callPeer;
      // A chat whose code is still loading (or that has not started) reads the message with its history.
      if (toTalk && context.pendingTalk === null) enqueue.sendTo('talk', { type: 'talk.incoming', message: event.message });
      if (toCallChat && callChatRuns(context)) enqueue.sendTo('callChat', { type: 'talk.incoming', message: event.message });
      if (toTalk || toCallChat) return;
      if (event.message.flow !== 'in') return;
      const banner = system.get('banner') as AnyActorRef | undefined;
      if (banner) enqueue.sendTo(banner, { type: 'banner.show', item: bannerItemFor(event.message) });
    }),
    routeNotification: enqueueActions(({ context, enqueue, event, system }) => {
      if (event.type !== 'im.notification') return;
      const routed = routeSystemMessage(event.content);
      // The named action, so the owner's composition decides where outputs go.
      const output = (params: SessionOutput) => enqueue({ type: 'output', params } as never);
      if (!routed.routed) return output({ type: 'session.log', text: `System message ignored: ${routed.reason}` });
      if (routed.owner === 'app') return output({ type: 'session.becameHost' });
      if (routed.owner === 'profile') return output({ type: 'session.followerAdded' });
      // call, live and payment own theirs; they exist only while such a flow runs.
      if (routed.owner === 'call') {
        if (context.inCall && context.pendingCall === null) enqueue.sendTo('call', routed.event);
        else output({ type: 'session.log', text: `System message for call, which is not running: ${routed.event.type}` });
        return;
      }
      const owner = system.get(routed.owner) as AnyActorRef | undefined;
      if (owner) enqueue.sendTo(owner, routed.event);
      else output({ type: 'session.log', text: `System message for ${routed.owner}, which is not running: ${routed.event.type}` });
    }),
    /** What the session reports to its owner; the root's composition turns it into events for the root. */
    output: emit((_, params: SessionOutput) => params),
    forwardVisibility: enqueueActions(({ enqueue, event, system }) => {
      for (const id of VISIBILITY_LISTENERS) {
        const child = system.get(id) as AnyActorRef | undefined;
        if (child) enqueue.sendTo(child, event);
      }
    }),
    forwardInput: enqueueActions(({ enqueue, event, system }) => {
      const idleHost = system.get('idleHost') as AnyActorRef | undefined;
      if (idleHost) enqueue.sendTo(idleHost, event);
    }),
    toConversations: enqueueActions(({ enqueue, event, system }) => {
      const conversations = system.get('conversations') as AnyActorRef | undefined;
      if (!conversations) return;
      if (event.type === 'im.connected') enqueue.sendTo(conversations, { type: 'conversations.reload' });
      if (event.type === 'im.conversationChanged') {
        enqueue.sendTo(conversations, { type: 'conversations.changed', conversation: event.conversation });
      }
    }),
    /** To every open chat: the talk screen's and the call's (each keeps only what is its own). */
    toChats: enqueueActions(({ context, enqueue, event }) => {
      const forward = event.type === 'im.connected' ? { type: 'talk.connected' as const } : event;
      if (context.talkPeer !== null && context.pendingTalk === null) enqueue.sendTo('talk', forward);
      if (callChatRuns(context)) enqueue.sendTo('callChat', forward);
    }),
    // The loaded logic is spawned as it is (it is not one of `actors`, hence `as never`).
    /** The talk's code is there: the talk starts for the peer it was opened for. */
    startTalk: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadTalk');
      if (context.pendingTalk === null) return;
      enqueue.spawnChild(event.output as never, { id: 'talk', input: context.pendingTalk } as never);
    }),
    /** The call's code is there: the call starts with what the ring or the tap said; its chat once it is connected. */
    startCall: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadCall');
      if (context.pendingCall === null || context.callPeer === null) return;
      enqueue.spawnChild(event.output.call as never, { id: 'call', syncSnapshot: true, input: context.pendingCall } as never);
      enqueue.assign({ pendingCallChat: { peer: context.callPeer, account: context.account } });
    }),
    /** How the call goes: kept (SPEC §4 App call state), told to the live rooms, and once connected its chat's code is asked for. */
    callChanged: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.snapshot.call');
      const state = appCallStateOf(event.snapshot);
      enqueue.sendTo('live', { type: 'call.changed', state });
      if (state === context.callState) return;
      enqueue.assign({ callState: state });
      if (state === 'connected' && context.pendingCallChat !== null) enqueue.spawnChild('loadTalk', { id: 'loadCallChat' });
    }),
    /** The chat's code is there: the call's chat starts, while the call still runs. */
    startCallChat: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadCallChat');
      if (context.pendingCallChat === null) return;
      enqueue.spawnChild(event.output as never, { id: 'callChat', input: context.pendingCallChat } as never);
      enqueue.assign({ pendingCallChat: null });
    }),
    /** No call after all: a ring is turned down as busy, a tap is told why. */
    dropCall: enqueueActions(({ context, enqueue }) => {
      if (context.pendingCall?.direction === 'in') enqueue.sendTo('signalLink', { type: 'busy', signal: context.pendingCall.signal });
      // Asked for offline, the call's code had no way to come: say what a call started offline says (SPEC §5, §8).
      else {
        const text = context.pendingCall?.online === false ? CallText.offline : TEXT_CALL_NOT_LOADED;
        enqueue({ type: 'output', params: { type: 'session.toast', text } } as never);
      }
    }),
    toLive: sendTo('live', ({ event }) => event),
    goOffline: enqueueActions(({ enqueue, system }) => {
      const presence = system.get('presence') as AnyActorRef | undefined;
      if (presence) enqueue.sendTo(presence, { type: 'presence.goOffline' });
    }),
  },
  guards: {
    isHost: ({ context }) => context.isHost,
    inCall: ({ context }) => context.inCall,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    ...input, endText: null, talkPeer: null, pendingTalk: null, inCall: false, callPeer: null, pendingCall: null, lastCall: null,
    callState: 'empty', pendingCallChat: null,
  }),
  invoke: [
    {
      id: 'imConnection',
      systemId: 'imConnection',
      src: 'imConnection',
      input: ({ context }) => ({ account: context.account, token: context.token, disconnectWhenHidden: context.isHost }),
    },
    // Presence finishes only after saying offline on logout.
    { id: 'presence', systemId: 'presence', src: 'presence', input: {}, onDone: '.left' },
    { id: 'banner', systemId: 'banner', src: 'banner' },
    { id: 'signalLink', src: 'signalLink', input: ({ context }) => ({ account: context.account }) },
    {
      id: 'conversations',
      systemId: 'conversations',
      src: 'conversations',
      input: ({ context }) => ({ account: context.account, isVip: context.isVip }),
    },
    {
      id: 'live',
      systemId: 'live',
      src: 'live',
      input: ({ context }) => {
        const p = context.profile;
        return {
          isHost: context.isHost,
          entry: {
            account: context.account, token: context.token, nick: p?.nick || context.account, ...(p?.avatar ? { avatar: p.avatar } : {}),
            ext: { isVip: context.isVip, isNewUser: p?.isNewUser ?? false, userLevel: p?.userLevel ?? 0 },
          },
        };
      },
    },
  ],
  initial: 'active',
  states: {
    active: {
      initial: 'choosing',
      states: {
        choosing: { always: [{ guard: 'isHost', target: 'hosting' }, { target: 'viewing' }] },
        /** Hosts: the idle rule runs (SPEC §4 Idle host). */
        hosting: { invoke: { id: 'idleHost', systemId: 'idleHost', src: 'idleHost' } },
        viewing: {},
      },
      on: {
        'im.message': { actions: 'toBanner' },
        'im.notification': { actions: 'routeNotification' },
        'im.unreadChanged': { actions: { type: 'output', params: ({ event }) => ({ type: 'session.unread', count: event.count }) } },
        'im.connected': { actions: ['toConversations', 'toChats'] },
        'im.conversationChanged': { actions: 'toConversations' },
        'child.toast': { actions: { type: 'output', params: ({ event }) => ({ type: 'session.toast', text: event.text }) } },
        'child.navigate': { actions: { type: 'output', params: ({ event }) => ({ type: 'session.navigate', to: event.to }) } },
        'live.begin': { actions: 'toLive' },
        'live.watch': { actions: 'toLive' },
        'live.dismiss': { actions: 'toLive' },
        'beauty.failed': { actions: 'toLive' },
        'xstate.snapshot.call': { actions: 'callChanged' },
        'im.sessionEnded': { target: 'ended', actions: assign({ endText: ({ event }) => event.text }) },
        'banner.navigate': { actions: { type: 'output', params: ({ event }) => ({ type: 'session.navigate', to: event.to }) } },
        'app.hidden': { actions: 'forwardVisibility' },
        'app.visible': { actions: 'forwardVisibility' },
        'user.input': { actions: 'forwardInput' },
        'session.leave': 'leaving',
        // The talk (and a call) run once their code is there: the loader's answer spawns them,
        // with the input kept meanwhile in context (pendingTalk, pendingCall).
        'talk.open': {
          actions: [
            stopChild('talk'), stopChild('loadTalk'),
            assign({
              talkPeer: ({ event }) => event.peer,
              pendingTalk: ({ context, event }) => ({ peer: event.peer, account: context.account }),
            }),
            spawnChild('loadTalk', { id: 'loadTalk' }),
          ],
        },
        'xstate.done.actor.loadTalk': { actions: ['startTalk', assign({ pendingTalk: null })] },
        'xstate.error.actor.loadTalk': {
          actions: [
            assign({ talkPeer: null, pendingTalk: null }),
            { type: 'output', params: { type: 'session.toast', text: TEXT_TALK_NOT_LOADED } },
          ],
        },
        'talk.close': { actions: [stopChild('talk'), stopChild('loadTalk'), assign({ talkPeer: null, pendingTalk: null })] },
        'call.start': {
          guard: not('inCall'),
          actions: [
            assign({
              inCall: true, lastCall: null, callPeer: ({ event }) => event.peer.account,
              pendingCall: ({ context, event }) => ({
                direction: 'out' as const, online: event.online, isHost: context.isHost, account: context.account,
                peer: event.peer, callType: event.callType,
              }),
            }),
            spawnChild('loadCall', { id: 'loadCall' }),
          ],
        },
        'call.ringing': [
          // One call at a time: a second ring is turned down as busy.
          { guard: 'inCall', actions: sendTo('signalLink', ({ event }) => ({ type: 'busy', signal: event.signal })) },
          {
            actions: [
              assign({
                inCall: true, lastCall: null, callPeer: ({ event }) => event.signal.from,
                pendingCall: ({ context, event }) => ({
                  direction: 'in' as const, online: true, isHost: context.isHost, account: context.account, signal: event.signal,
                }),
              }),
              spawnChild('loadCall', { id: 'loadCall' }),
            ],
          },
        ],
        'xstate.done.actor.loadCall': { actions: ['startCall', assign({ pendingCall: null })] },
        'xstate.error.actor.loadCall': { actions: ['dropCall', assign({ inCall: false, callPeer: null, pendingCall: null })] },
        'xstate.done.actor.call': {
          actions: [
            stopChild('call'), stopChild('callChat'), stopChild('loadCallChat'), sendTo('live', { type: 'call.ended' }),
            assign({
              inCall: false, callPeer: null, callState: 'empty', pendingCallChat: null, lastCall: ({ event }) => event.output as CallSummary,
            }),
          ],
        },
        'xstate.done.actor.loadCallChat': { actions: 'startCallChat' },
        // The call's own code came, so this one can hardly fail to; if it did, the call goes on without its chat.
        'xstate.error.actor.loadCallChat': { actions: { type: 'output', params: { type: 'session.log', text: 'The call\'s chat could not be loaded' } } },
        'call.dismiss': { actions: assign({ lastCall: null }) },
        'talk.sent': { actions: 'toChats' },
        'talk.sendFailed': { actions: 'toChats' },
      },
    },
    /**
     * Logging out: presence says offline first (SPEC §4 "Logout sends offline"); presence
     * bounds that by its own 5 s timeout, then finishes, which ends this state.
     */
    leaving: {
      entry: 'goOffline',
    },
    left: { type: 'final' },
    ended: { type: 'final' },
  },
  output: ({ context }) => ({ endText: context.endText }),
});

export type SessionMachine = typeof sessionMachine;
