/**
 * The signed-in session: owner of the long-lived children of SPEC §4 — IM connection,
 * presence, the incoming-message banner and, for hosts, the idle-host rule — and the router
 * of what they report.
 *
 *   active.{hosting | viewing} ─session.leave─▶ leaving (presence sends offline, ≤ 5 s) ─presence done─▶ left
 *   active ─im.sessionEnded─▶ ended (kicked elsewhere or IM unrecoverable)
 *
 * The talk screen's chat (child `talk`) is not in the first screens' code: it is loaded when a
 * talk opens (`loadTalk`), and the talk is spawned from the loader's answer with the input kept
 * meanwhile in context (`pendingTalk`).
 *
 * Calls are the `calls` child's (calls.machine.ts: the call, its chat with the peer, how the last
 * one ended): the session passes it the call intents, its peer's messages and what the chats
 * hear, and turns a ring down as busy when it asks. Live rooms are the `live` child's
 * (live-rooms.machine.ts): the session passes it the screens' live.* intents and a beauty
 * failure; the calls tell it how the call goes, so that a host's private call takes her out of
 * her room and back.
 *
 * Messages become banners unless a chat shows them; system notifications go through the §4
 * table to the machine that owns them (a call's go to the calls), when the server's system
 * sender sent them (any other sender's are logged and dropped); unread totals, navigation
 * and log lines leave through the `output` action as emitted events (`SessionOutput`), which
 * the root actor's composition turns into events for itself.
 */
import { assertEvent, assign, emit, enqueueActions, fromCallback, fromPromise, sendTo, spawnChild, stopChild } from 'xstate';
import { setup } from '../setup';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import { bannerMachine } from '../banner/banner.machine';
import { idleHostMachine } from '../idle-host/idle-host.machine';
import { imConnectionMachine } from '../im-connection/im-connection.machine';
import { conversationsMachine } from '../conversations/conversations.machine';
import { presenceMachine } from '../presence/presence.machine';
import { SYSTEM_SENDER_ACCID, routeSystemMessage } from '../system-messages/system-messages';
import { callPeerOf, callsMachine } from './calls.machine';
import { liveRoomsMachine } from './live-rooms.machine';
import { bannerItemFor } from './session.types';
import type { SessionContext, SessionEvent, SessionInput, SessionOutput, SignalLinkEvent } from './session.types';
import type { TalkLogic } from './per-use.actors';

export * from './session.types';

/** Said when the code of a chat could not be fetched (the network is away). */
export const TEXT_TALK_NOT_LOADED = 'This chat could not be opened. Check the connection and try again.';

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
    calls: callsMachine,
    /** The talk's code, loaded when a talk opens (per-use.actors.ts). */
    loadTalk: fromPromise<TalkLogic>(notComposed),
    /** Signalling login and incoming rings (`call.ringing`); told `busy` to turn a ring down. */
    signalLink: fromCallback<SignalLinkEvent, { account: string }>(() => () => {}),
  },
  actions: {
    /** A message of the open talk or of the call's chat goes there; any other incoming one shows as a banner. */
    toBanner: enqueueActions(({ context, enqueue, event, system }) => {
      if (event.type !== 'im.message') return;
      const toTalk = context.talkPeer !== null && event.message.sessionId === context.talkPeer;
      // From the loading of a call's code to its end, its peer's messages are the call's chat's.
      const calls = system.get('calls') as ActorRefFrom<typeof callsMachine> | undefined;
      const toCall = calls !== undefined && event.message.sessionId === callPeerOf(calls.getSnapshot().context);
      // A chat whose code is still loading (or that has not started) reads the message with its history.
      if (toTalk && context.pendingTalk === null) enqueue.sendTo('talk', { type: 'talk.incoming', message: event.message });
      if (toCall) enqueue.sendTo(calls, { type: 'talk.incoming', message: event.message });
      if (toTalk || toCall) return;
      if (event.message.flow !== 'in') return;
      const banner = system.get('banner') as AnyActorRef | undefined;
      if (banner) enqueue.sendTo(banner, { type: 'banner.show', item: bannerItemFor(event.message) });
    }),
    routeNotification: enqueueActions(({ enqueue, event, system }) => {
      if (event.type !== 'im.notification') return;
      // The named action, so the owner's composition decides where outputs go.
      const output = (params: SessionOutput) => enqueue({ type: 'output', params } as never);
      // Anyone can send a custom notification (NetEase lets clients do it): only the server's system sender is obeyed.
      if (event.from !== SYSTEM_SENDER_ACCID) {
        return output({ type: 'session.log', text: `System message from ${event.from} ignored: not from the server` });
      }
      const routed = routeSystemMessage(event.content);
      if (!routed.routed) return output({ type: 'session.log', text: `System message ignored: ${routed.reason}` });
      if (routed.owner === 'app') return output({ type: 'session.becameHost' });
      if (routed.owner === 'profile') return output({ type: 'session.followerAdded' });
      // The calls know whether a call runs to take it.
      if (routed.owner === 'call') return enqueue.sendTo('calls', { type: 'call.systemMessage', event: routed.event });
      // live and payment own theirs; they exist only while such a flow runs.
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
    /** To every open chat: the talk screen's, and the call's once it runs (each keeps only what is its own). */
    toChats: enqueueActions(({ context, enqueue, event }) => {
      if (event.type !== 'im.connected' && event.type !== 'talk.sent' && event.type !== 'talk.sendFailed') return;
      const forward = event.type === 'im.connected' ? { type: 'talk.connected' as const } : event;
      if (context.talkPeer !== null && context.pendingTalk === null) enqueue.sendTo('talk', forward);
      enqueue.sendTo('calls', forward);
    }),
    // The loaded logic is spawned as it is (it is not one of `actors`, hence `as never`).
    /** The talk's code is there: the talk starts for the peer it was opened for. */
    startTalk: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadTalk');
      if (context.pendingTalk === null) return;
      enqueue.spawnChild(event.output as never, { id: 'talk', input: context.pendingTalk } as never);
    }),
    toLive: sendTo('live', ({ event }) => event),
    toCalls: sendTo('calls', ({ event }) => event),
    goOffline: enqueueActions(({ enqueue, system }) => {
      const presence = system.get('presence') as AnyActorRef | undefined;
      if (presence) enqueue.sendTo(presence, { type: 'presence.goOffline' });
    }),
  },
  guards: {
    isHost: ({ context }) => context.isHost,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ ...input, endText: null, talkPeer: null, pendingTalk: null }),
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
          entry: {
            account: context.account, token: context.token, nick: p?.nick || context.account, ...(p?.avatar ? { avatar: p.avatar } : {}),
            ext: { isVip: context.isVip, isNewUser: p?.isNewUser ?? false, userLevel: p?.userLevel ?? 0 },
          },
        };
      },
    },
    { id: 'calls', systemId: 'calls', src: 'calls', input: ({ context }) => ({ isHost: context.isHost, account: context.account }) },
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
        'im.sessionEnded': { target: 'ended', actions: assign({ endText: ({ event }) => event.text }) },
        'banner.navigate': { actions: { type: 'output', params: ({ event }) => ({ type: 'session.navigate', to: event.to }) } },
        'app.hidden': { actions: 'forwardVisibility' },
        'app.visible': { actions: 'forwardVisibility' },
        'user.input': { actions: 'forwardInput' },
        'session.leave': 'leaving',
        // The talk runs once its code is there: the loader's answer spawns it, with the input kept meanwhile in context.
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
        'call.start': { actions: 'toCalls' },
        'call.ringing': { actions: 'toCalls' },
        'call.dismiss': { actions: 'toCalls' },
        'child.log': { actions: { type: 'output', params: ({ event }) => ({ type: 'session.log', text: event.text }) } },
        // The calls turn down a ring (one call at a time, or its code could not come): signalling says busy.
        'child.busy': { actions: sendTo('signalLink', ({ event }) => ({ type: 'busy', signal: event.signal })) },
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
