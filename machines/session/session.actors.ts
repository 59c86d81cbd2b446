/**
 * The session composed with its children and their ports. What a child asks its owner for
 * (a toast, a navigation, a log line) comes up as the session's events here, so each child
 * stays testable on its own; facts are subscribed to, not passed on (facts-of.ts).
 */
import { fromCallback, fromPromise, sendParent } from 'xstate';
import type { AnyActorRef } from 'xstate';
import { bannerMachine, navigationOf } from '../banner/banner.machine';
import { composeIdleHost } from '../idle-host/idle-host.actors';
import type { ClockPort } from '../idle-host/idle-host.actors';
import { composeImConnection } from '../im-connection/im-connection.actors';
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
import { signalLinkMachine } from './signal-link.machine';
import { talksMachine } from '../talks/talks.machine';
import type { TalksOutput } from '../talks/talks.machine';
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

/** The calls' link to signalling over its port: the login with a fresh RTM token, the drops, the logout at the end. */
export function composeSignalLink(ports: Pick<SessionPorts, 'signalling' | 'rtmToken'>) {
  const { signalling } = ports;
  return signalLinkMachine.provide({
    actors: {
      login: fromPromise(async ({ input }) => signalling.login(input.account, await ports.rtmToken())),
      link: fromCallback(({ sendBack }) => {
        const unsubscribe = signalling.subscribe((event) => { if (event.type === 'disconnected') sendBack({ type: 'signal.disconnected' }); });
        return () => {
          unsubscribe();
          signalling.logout().catch(() => undefined);
        };
      }),
    },
  });
}

/**
 * The session's calls over signalling, with the loaders of their code; what they ask for comes
 * up to the session as its events.
 */
export function composeCalls(ports: Pick<SessionPorts, 'signalling' | 'rtmToken'>, loaders: ReturnType<typeof perUseLoaders>) {
  const { signalling } = ports;
  const signalLink = composeSignalLink(ports);
  return callsMachine.provide({
    actors: {
      ...loaders,
      signalLink,
      rings: fromCallback(({ sendBack }) => signalling.subscribe((event) => {
        if (event.type === 'signal' && (event.signal.action === SignalAction.videoCall || event.signal.action === SignalAction.audioCall)) {
          sendBack({ type: 'call.ringing', signal: event.signal });
        }
      })),
      busyReply: fromPromise(async ({ input: signal }) => {
        await signalling.send(signal.from, { action: SignalAction.reject, channelId: signal.channelId, payload: { busy: true } }).catch(() => undefined);
      }),
    },
    actions: { output: sendParent((_, params: CallsOutput) => params) },
  });
}

/** The talk screen's chats with the loader of their code; what they ask for comes up to the session as its events. */
export function composeTalks(loaders: ReturnType<typeof perUseLoaders>) {
  return talksMachine.provide({
    actors: { loadTalk: loaders.loadTalk },
    actions: { output: sendParent((_, params: TalksOutput) => params) },
  });
}

/**
 * The session over its ports. The talk, the call and the lives are composed from
 * per-use.actors.ts, which is loaded on their first use: their code is not in the first screens.
 */
export function composeSession(ports: SessionPorts, loadPerUse: PerUseLoader = () => import('./per-use.actors')) {
  // The connection emits its facts; whoever needs one subscribes (talks, the call's chat, banner, conversations, the session).
  const imConnection = composeImConnection({ im: ports.im, refreshImToken: ports.refreshImToken });
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
      navigate: sendParent(({ context }) => navigationOf(context)),
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
  const loaders = perUseLoaders(ports, loadPerUse);
  return sessionMachine.provide({
    actors: {
      imConnection, presence: composePresence(ports.presence, ports.presenceRetry), banner, idleHost, conversations, live,
      calls: composeCalls(ports, loaders), talks: composeTalks(loaders),
    },
  });
}
