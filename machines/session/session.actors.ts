/**
 * The session composed with its children and their ports. The children's reports
 * (emitted events) are turned into events for the session here, so each child stays
 * testable on its own.
 */
import { fromCallback, fromPromise, sendParent } from 'xstate';
import type { AnyActorRef } from 'xstate';
import { bannerMachine, tapTarget } from '../banner/banner.machine';
import type { BannerEmitted } from '../banner/banner.machine';
import { composeIdleHost } from '../idle-host/idle-host.actors';
import type { ClockPort } from '../idle-host/idle-host.actors';
import { composeImConnection } from '../im-connection/im-connection.actors';
import { TEXT_NOT_CONNECTED, outputOf } from '../im-connection/im-connection.machine';
import type { SecretInfo } from '../talk/talk-extras.machine';
import { composeConversations } from '../conversations/conversations.actors';
import type { ConversationsPorts } from '../conversations/conversations.actors';
import type { ChatroomPort } from '../ports/chatroom.port';
import type { LiveApiPort, LiveMediaPort } from '../ports/live.port';
import { composeLiveRooms, unavailableLive } from './live-rooms.actors';
import type { LiveRoomsOutput } from './live-rooms.machine';
import type { CallApiPort, RtcPort } from '../ports/call.port';
import type { GiftApiPort } from '../ports/gift.port';
import type { ImPort } from '../ports/im.port';
import { SignalAction } from '../ports/signalling.port';
import type { SignallingPort } from '../ports/signalling.port';
import { callsMachine } from './calls.machine';
import type { CallsOutput } from './calls.machine';
import type { SessionEvent, SignalLinkEvent } from './session.machine';
import type { PresencePort } from '../ports/presence.port';
import { composePresence } from '../presence/presence.actors';
import type { PresenceRetry } from '../presence/presence.actors';
import { sessionMachine } from './session.machine';
import type * as PerUse from './per-use.actors';

export interface SessionPorts {
  im: ImPort;
  presence: PresencePort;
  clock: ClockPort;
  refreshImToken: () => Promise<string>;
  /** `max_no_use_app_reminder_time` in minutes. */
  loadIdleMinutes: () => Promise<number>;
  /** The customer-service IM account, or null. */
  customerServiceAccount: () => Promise<string | null>;
  lookupProfiles: ConversationsPorts['lookupProfiles'];
  /** The talk's extras (SPEC §7): translating, blocking, secret (paid) messages. */
  translate: (text: string, to: string) => Promise<string>;
  setBlocked: (peer: string, blocked: boolean) => Promise<void>;
  /** Stores a secret message for `to`; answers the ext to send with it. */
  storeSecret: (secret: { to: string; price: number; content: string }) => Promise<Record<string, unknown>>;
  /**
   * The secret message as this person may see it; with a `payment`, pays for it first (once),
   * under the payment's idempotency key (machines/shared/intent-key.ts). Rejects with
   * UnansweredError when no answer came.
   */
  openSecret: (id: number, payment?: { idempotencyKey: string }) => Promise<SecretInfo>;
  loadPins: ConversationsPorts['loadPins'];
  savePins: ConversationsPorts['savePins'];
  /** A presence reconnect policy other than SPEC §9's: development only (presence.actors.ts PresenceRetry). */
  presenceRetry?: PresenceRetry;
  /** Calls (SPEC §7 Calls): signalling (with its login token), the call API and the media. */
  signalling: SignallingPort;
  rtmToken: () => Promise<string>;
  callApi: CallApiPort;
  rtc: RtcPort;
  /**
   * Loads what a call uses beside the machines (the call ports' and the media adapter's code),
   * opening nothing: asked for as a call starts or rings, beside the machines' own code, so the
   * two loads overlap instead of following each other.
   */
  warmCall?: () => void;
  /** The gifts of a call and of a live room (SPEC §7 Gifts). */
  giftApi: GiftApiPort;
  /**
   * Live rooms (SPEC §7 Calls and live): the live API, the room's media (one room at a time)
   * and the chat rooms. Without them, going live and watching fail with TEXT_LIVE_UNAVAILABLE.
   */
  liveApi?: LiveApiPort;
  liveMedia?: LiveMediaPort;
  chatroom?: ChatroomPort;
}

/** Wait before logging in to signalling again after a failure or a drop. */
export const SIGNAL_RELOGIN_MS = 5_000;

/** What an owner of the session provides; the IM token refresh comes from the sign-in side. */
export type RealtimePorts = Omit<SessionPorts, 'refreshImToken'>;

/** Loads the module of the session's per-use children (per-use.actors.ts) for a use; tests pass one they settle by hand. */
export type PerUseLoader = (use: 'talk' | 'call' | 'live') => Promise<typeof PerUse>;

/**
 * The loaders of the talk's and the call's code (per-use.actors.ts), each answering the machines
 * composed with their ports. Composed once per loaded module: a ring, a tap or a talk then spends
 * no time composing the machines again.
 */
export function perUseLoaders(ports: SessionPorts, loadPerUse: PerUseLoader) {
  const composed = new WeakMap<typeof PerUse, { talk?: ReturnType<typeof PerUse.composeTalk>; call?: ReturnType<typeof PerUse.composeCallChildren> }>();
  const of = (module: typeof PerUse) => composed.get(module) ?? composed.set(module, {}).get(module)!;
  return {
    loadTalk: fromPromise(async () => {
      const module = await loadPerUse('talk');
      return (of(module).talk ??= module.composeTalk(ports));
    }),
    loadCall: fromPromise(async () => {
      ports.warmCall?.();
      const module = await loadPerUse('call');
      return (of(module).call ??= module.composeCallChildren(ports));
    }),
  };
}

/** The session's calls with the loaders of their code; what they ask for comes up to the session as its events. */
export function composeCalls(loaders: ReturnType<typeof perUseLoaders>) {
  return callsMachine.provide({
    actors: loaders,
    actions: { output: sendParent((_, params: CallsOutput) => params) },
  });
}

/**
 * The session over its ports. The talk, the call and the lives are composed from
 * per-use.actors.ts, which is loaded on their first use: their code is not in the first screens.
 */
export function composeSession(ports: SessionPorts, loadPerUse: PerUseLoader = () => import('./per-use.actors')) {
  const imConnection = composeImConnection({ im: ports.im, refreshImToken: ports.refreshImToken }).provide({
    actions: {
      forward: sendParent(({ event }) => outputOf(event)),
      endSession: sendParent((_, params: { text: string | null }) => ({ type: 'im.sessionEnded', text: params.text })),
      reportConnected: sendParent({ type: 'im.connected' }),
      // Send answers go to the session, which hands them to the open talk.
      reportSend: sendParent(({ event }) => {
        if (event.type === 'im.sent') return { type: 'talk.sent', idClient: event.idClient, message: event.message };
        if (event.type === 'im.sendFailed') return { type: 'talk.sendFailed', idClient: event.idClient, reason: event.reason, text: event.text };
        throw new Error('reportSend needs a send outcome');
      }),
      // Also called for each send held during a login that ended unconnected (no im.sendText at hand).
      refuseSend: sendParent((_, params: { idClient: string }) => ({
        type: 'talk.sendFailed', idClient: params.idClient, reason: 'notConnected', text: TEXT_NOT_CONNECTED,
      })),
    },
  });
  const conversations = composeConversations({
    im: ports.im, lookupProfiles: ports.lookupProfiles, loadPins: ports.loadPins, savePins: ports.savePins,
  }).provide({
    actions: { refuse: sendParent((_, text: string) => ({ type: 'child.toast', text })) },
  });
  const banner = bannerMachine.provide({
    actors: {
      customerService: fromPromise(() => ports.customerServiceAccount()),
      senderAvatar: fromPromise<string | null, { account: string }>(async ({ input }) =>
        (await ports.lookupProfiles([input.account]))[input.account]?.icon || null),
    },
    actions: {
      navigate: sendParent(({ context }): BannerEmitted => {
        const to = context.current ? tapTarget(context.current, context.customerServiceId) ?? '' : '';
        return { type: 'banner.navigate', to };
      }),
    },
  });
  const idleHost = composeIdleHost({
    clock: ports.clock,
    loadIdleMinutes: ports.loadIdleMinutes,
    setHostOnline: () => Promise.resolve(),
  }).provide({
    actors: {
      // Online status is what presence reports: the idle rule tells presence.
      setOnline: fromPromise<void, boolean>(async ({ input: online, system }) => {
        const presence = system.get('presence') as AnyActorRef | undefined;
        presence?.send({ type: online ? 'host.online' : 'host.idleOffline' });
      }),
    },
  });
  const live = composeLiveRooms({
    api: ports.liveApi ?? unavailableLive.api, media: ports.liveMedia ?? unavailableLive.media,
    chatroom: ports.chatroom ?? unavailableLive.chatroom, gifts: ports.giftApi,
  }, loadPerUse).provide({
    // What the lives ask for reaches the session as its events (child.toast, child.navigate, call.start).
    actions: { output: sendParent((_, params: LiveRoomsOutput) => params) },
  });
  /** Logged in to signalling while the session lives (again after a failure or a drop); rings go to the session. */
  const signalLink = fromCallback<SignalLinkEvent, { account: string }>(
    ({ input, sendBack, receive }) => {
      let stopped = false;
      let timer: unknown = null;
      const later = () => {
        if (!stopped) timer = ports.clock.setTimeout(() => void login(), SIGNAL_RELOGIN_MS);
      };
      const login = async () => {
        try {
          await ports.signalling.login(input.account, await ports.rtmToken());
        } catch {
          later();
        }
      };
      const unsubscribe = ports.signalling.subscribe((event) => {
        if (event.type === 'disconnected') later();
        if (event.type !== 'signal') return;
        const { action } = event.signal;
        if (action === SignalAction.videoCall || action === SignalAction.audioCall) {
          sendBack({ type: 'call.ringing', signal: event.signal } satisfies SessionEvent);
        }
      });
      receive(({ signal }) => {
        ports.signalling.send(signal.from, { action: SignalAction.reject, channelId: signal.channelId, payload: { busy: true } })
          .catch(() => undefined);
      });
      void login();
      return () => {
        stopped = true;
        if (timer !== null) ports.clock.clearTimeout(timer);
        unsubscribe();
        ports.signalling.logout().catch(() => undefined);
      };
    },
  );
  const loaders = perUseLoaders(ports, loadPerUse);
  return sessionMachine.provide({
    actors: {
      imConnection, presence: composePresence(ports.presence, ports.presenceRetry), banner, idleHost, conversations, signalLink, live,
      calls: composeCalls(loaders), loadTalk: loaders.loadTalk,
    },
  });
}
