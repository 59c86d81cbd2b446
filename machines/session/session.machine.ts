/**
 * The signed-in session: owner of the lifetimes of its children (SPEC §4) — IM connection,
 * presence, the incoming-message banner, the conversations, the calls, the talk screen's chats
 * (`talks`), the live rooms and, for hosts, the idle-host rule — and of the logout order.
 *
 *   active.{hosting | viewing} ─session.leave─▶ leaving (presence sends offline, ≤ 5 s) ─presence done─▶ left
 *   active ─im.sessionEnded─▶ ended (kicked elsewhere or IM unrecoverable)
 *
 * Nothing is relayed: the IM connection emits its facts and each child that needs one subscribes
 * (the talks and the call's chat to messages and send answers, the banner to messages, the
 * conversations to logins and changes). The session subscribes to its own: system notifications
 * (routed through the §4 table to the machine that owns them, when the server's system sender
 * sent them), unread totals and the end of the session. The calls log in to signalling and hear
 * rings themselves (calls.machine.ts). The screens' call and live intents still come here and go
 * to the `calls` and `live` children; what the children ask for (toasts, navigation, log lines)
 * and the unread total leave through the `output` action as emitted events (`SessionOutput`).
 */
import { assertEvent, assign, emit, enqueueActions, fromPromise, sendTo } from 'xstate';
import { setup } from '../setup';
import type { AnyActorRef } from 'xstate';
import { bannerMachine } from '../banner/banner.machine';
import { idleHostMachine } from '../idle-host/idle-host.machine';
import { imConnectionMachine } from '../im-connection/im-connection.machine';
import type { ImConnectionEmitted } from '../im-connection/im-connection.types';
import { conversationsMachine } from '../conversations/conversations.machine';
import { presenceMachine } from '../presence/presence.machine';
import { factsOf } from '../shared/facts-of';
import { SYSTEM_SENDER_ACCID, routeSystemMessage } from '../system-messages/system-messages';
import { talksMachine } from '../talks/talks.machine';
import { callsMachine } from '../calls/calls.machine';
import { liveRoomsMachine } from '../live-rooms/live-rooms.machine';
import type { WalletMachine } from '../wallet/wallet.machine';
import { loadedOnUse, spawnLoaded } from '../shared/load-then-spawn';
import type { SessionContext, SessionEvent, SessionInput, SessionOutput } from './session.types';

export * from './session.types';


/** The wallet's input, from the session's. */
export const walletInputOf = (context: Pick<SessionContext, 'account' | 'isVip'>) => ({ account: context.account, isVip: context.isVip });

export const sessionMachine = setup({
  types: {
    input: {} as SessionInput,
    context: {} as SessionContext,
    events: {} as SessionEvent,
    emitted: {} as SessionOutput,
    children: {} as {
      imConnection: 'imConnection'; presence: 'presence'; banner: 'banner'; conversations: 'conversations'; liveRooms: 'liveRooms';
      calls: 'calls'; talks: 'talks'; imFacts: 'imFacts'; idleHost: 'idleHost'; wallet: 'wallet'; loadWallet: 'loadWallet';
    },
  },
  // The composition (session.actors.ts) provides these composed with their ports.
  actors: {
    imConnection: imConnectionMachine,
    presence: presenceMachine,
    banner: bannerMachine,
    idleHost: idleHostMachine,
    conversations: conversationsMachine,
    liveRooms: liveRoomsMachine,
    calls: callsMachine,
    talks: talksMachine,
    /** The wallet's code (wallet.actors.ts), loaded as the session starts: it is in no first screen. */
    loadWallet: fromPromise<WalletMachine>(() => Promise.reject(new Error('The session was not composed with its wallet'))),
    /** The wallet, spawned from the loader's answer (machines/shared/load-then-spawn.ts). */
    wallet: loadedOnUse<WalletMachine>(),
    /** What the IM connection says that is the session's own: system notifications, unread totals, its end. */
    imFacts: factsOf<ImConnectionEmitted>('imConnection', ['im.notification', 'im.unreadChanged', 'im.sessionEnded']),
  },
  actions: {
    routeNotification: enqueueActions(({ context, enqueue, event, system }) => {
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
      // The wallet owns 99 (the USDT countdown); it is there once its code has loaded.
      if (routed.owner === 'wallet') {
        if (context.walletReady) return enqueue.sendTo('wallet', routed.event);
        return output({ type: 'session.log', text: `System message for wallet, which is not loaded yet: ${routed.event.type}` });
      }
      // The live rooms own theirs.
      const owner = system.get(routed.owner) as AnyActorRef | undefined;
      if (owner) enqueue.sendTo(owner, routed.event);
      else output({ type: 'session.log', text: `System message for ${routed.owner}, which is not running: ${routed.event.type}` });
    }),
    /** What the session reports to its owner; the root's composition turns it into events for the root. */
    output: emit((_, params: SessionOutput) => params),
    /** The app's visibility, to the connections (the idle host hears it too while it runs: `hosting`). */
    toConnections: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, ['app.hidden', 'app.visible']);
      enqueue.sendTo('imConnection', event);
      enqueue.sendTo('presence', event);
      // A USDT countdown reads the clock at once when the app is back in view.
      if (event.type === 'app.visible' && context.walletReady) enqueue.sendTo('wallet', event);
    }),
    /**
     * The wallet's code is there: the wallet starts. The composition starts it under its system id
     * too ('wallet': the talk's quota finds it there); a bare machine (the generated paths' model,
     * which spawns in one shared system) starts it by its id only.
     */
    startWallet: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadWallet');
      spawnLoaded(enqueue, event.output, { id: 'wallet', input: walletInputOf(context) });
    }),
    toIdleHost: sendTo('idleHost', ({ event }) => event),
    toCalls: sendTo('calls', ({ event }) => event),
    goOffline: sendTo('presence', { type: 'presence.goOffline' }),
  },
  guards: {
    isHost: ({ context }) => context.isHost,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ ...input, endText: null, walletReady: false }),
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
    {
      id: 'conversations',
      systemId: 'conversations',
      src: 'conversations',
      input: ({ context }) => ({ account: context.account, isVip: context.isVip }),
    },
    {
      id: 'liveRooms',
      systemId: 'liveRooms',
      src: 'liveRooms',
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
    { id: 'talks', systemId: 'talks', src: 'talks', input: ({ context }) => ({ account: context.account, isHost: context.isHost }) },
    // The person's diamonds and VIP, the recharge and the USDT countdown (owner of system message 99): its code loads now, off the first screens.
    {
      id: 'loadWallet',
      src: 'loadWallet',
      onDone: { actions: ['startWallet', assign({ walletReady: true })] },
      onError: { actions: { type: 'output', params: ({ event }) => ({ type: 'session.log', text: `The wallet's code did not load: ${String(event.error)}` }) } },
    },
    // After the connection, so that it is there to subscribe to.
    { id: 'imFacts', src: 'imFacts' },
  ],
  initial: 'active',
  states: {
    active: {
      initial: 'choosing',
      states: {
        choosing: { always: [{ guard: 'isHost', target: 'hosting' }, { target: 'viewing' }] },
        /** Hosts: the idle rule runs (SPEC §4 Idle host). */
        hosting: {
          invoke: { id: 'idleHost', systemId: 'idleHost', src: 'idleHost' },
          // The idle rule hears of the app's visibility and of every tap or key (SPEC §4 Idle host).
          on: {
            'app.hidden': { actions: ['toConnections', 'toIdleHost'] },
            'app.visible': { actions: ['toConnections', 'toIdleHost'] },
            'user.input': { actions: 'toIdleHost' },
          },
        },
        viewing: {},
      },
      on: {
        'im.notification': { actions: 'routeNotification' },
        'im.unreadChanged': { actions: { type: 'output', params: ({ event }) => ({ type: 'session.unread', count: event.count }) } },
        'child.toast': { actions: { type: 'output', params: ({ event }) => ({ type: 'session.toast', text: event.text }) } },
        'child.navigate': { actions: { type: 'output', params: ({ event }) => ({ type: 'session.navigate', to: event.to }) } },
        'im.sessionEnded': { target: 'ended', actions: assign({ endText: ({ event }) => event.text }) },
        'app.hidden': { actions: 'toConnections' },
        'app.visible': { actions: 'toConnections' },
        'session.leave': 'leaving',
        'call.start': { actions: 'toCalls' },
        'child.log': { actions: { type: 'output', params: ({ event }) => ({ type: 'session.log', text: event.text }) } },
        'child.openPage': { actions: { type: 'output', params: ({ event }) => ({ type: 'session.openPage', url: event.url }) } },
        // A VIP bought (or ended): pinning follows, and the profile shown around the app.
        'wallet.vip': {
          actions: [
            assign({ isVip: ({ event }) => event.isVip }),
            sendTo('conversations', ({ event }) => ({ type: 'vip.changed' as const, isVip: event.isVip })),
            { type: 'output', params: ({ event }) => ({ type: 'session.vip', isVip: event.isVip }) },
          ],
        },
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
