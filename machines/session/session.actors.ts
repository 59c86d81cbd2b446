/**
 * The session composed with its children and their ports. What a child asks its owner for
 * (a toast, a navigation, a log line) comes up as the session's events here, so each child
 * stays testable on its own; facts are subscribed to, not passed on (facts-of.ts).
 */
import { assertEvent, enqueueActions, fromPromise, sendParent } from 'xstate';
import type { AnyActorRef } from 'xstate';
import { bannerMachine, navigationOf } from '../banner/banner.machine';
import { composeCalls } from '../calls/calls.actors';
import type { CallChildren } from '../calls/calls.types';
import { composeConversations } from '../conversations/conversations.actors';
import { composeIdleHost } from '../idle-host/idle-host.actors';
import { composeImConnection } from '../im-connection/im-connection.actors';
import { composeLiveRooms, unavailableLive } from '../live-rooms/live-rooms.actors';
import type { LiveRoomsOutput } from '../live-rooms/live-rooms.machine';
import { composePresence } from '../presence/presence.actors';
import type { TalkMachine } from '../talk/talk.machine';
import { composeTalks } from '../talks/talks.actors';
import type { WalletMachine } from '../wallet/wallet.machine';
import type { WalletPorts } from '../wallet/wallet.actors';
import type { WalletPort } from '../ports/wallet.port';
import { sessionMachine, walletInputOf } from './session.machine';
import { spawnLoaded } from '../shared/load-then-spawn';
import type { PerUseLoader, PerUseModule, SessionPorts } from './session.ports';

export type { PerUseLoader, PerUseModule, RealtimePorts, SessionPorts } from './session.ports';

/**
 * The loaders of the talk's and the call's code (per-use.actors.ts), each answering the machines
 * composed with their ports. Composed once per loaded module: a ring, a tap or a talk then spends
 * no time composing the machines again.
 */
export function perUseLoaders(ports: SessionPorts, loadPerUse: PerUseLoader) {
  const composed = new WeakMap<PerUseModule, { talk?: TalkMachine; call?: CallChildren }>();
  const of = (module: PerUseModule) => composed.get(module) ?? composed.set(module, {}).get(module)!;
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

/** Said when the session was composed without the wallet's ports. */
export const TEXT_WALLET_UNAVAILABLE = 'The wallet is not available.';

const unavailable = () => Promise.reject(new Error(TEXT_WALLET_UNAVAILABLE));
/** The wallet of a session composed without one: every ask fails in words. */
export const unavailableWallet: WalletPort = {
  offers: unavailable, order: unavailable, usdtPaid: unavailable, vipShop: unavailable, summary: unavailable, orderHistory: unavailable, diamondFlows: unavailable,
};

/**
 * The session over its ports. The talk, the call and the lives are composed from
 * per-use.actors.ts, which is loaded on their first use: their code is not in the first screens.
 */
/** Loads the wallet's composition (wallet.actors.ts); tests pass one they settle by hand. */
export type WalletLoader = () => Promise<{ composeWallet(ports: WalletPorts): WalletMachine }>;

export function composeSession(
  ports: SessionPorts, loadPerUse: PerUseLoader = () => import('./per-use.actors'), loadWallet: WalletLoader = () => import('../wallet/wallet.actors'),
) {
  // The connection emits its facts; whoever needs one subscribes (talks, the call's chat, banner, conversations, the session).
  const imConnection = composeImConnection({ im: ports.im, tokens: ports.tokens });
  const conversations = composeConversations({ im: ports.im, profiles: ports.profiles, pins: ports.pins }).provide({
    actions: { refuse: sendParent((_, text: string) => ({ type: 'child.toast', text })) },
  });
  const banner = bannerMachine.provide({
    actors: {
      customerService: fromPromise(() => ports.profiles.customerService()),
      senderAvatar: fromPromise<string | null, { account: string }>(async ({ input }) =>
        (await ports.profiles.lookup([input.account]))[input.account]?.icon || null),
    },
    actions: {
      navigate: sendParent(({ context }) => ({ type: 'child.navigate', to: navigationOf(context).to })),
    },
  });
  const idleHost = composeIdleHost({
    clock: ports.clock,
    settings: ports.settings,
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
    chatroom: ports.chatroom ?? unavailableLive.chatroom, gifts: ports.giftApi, clock: ports.clock,
  }, loadPerUse).provide({
    // What the lives ask for reaches the session as its events (child.toast, child.navigate, call.start).
    actions: { output: sendParent((_, params: LiveRoomsOutput) => params) },
  });
  const loaders = perUseLoaders(ports, loadPerUse);
  const walletPorts: WalletPorts = {
    wallet: ports.wallet ?? unavailableWallet,
    clock: ports.clock,
    storePay: ports.storePay ?? (() => Promise.resolve('unavailable')),
    payData: ports.payData ?? { read: () => Promise.resolve(null), write: () => Promise.resolve(), clear: () => Promise.resolve() },
  };
  return sessionMachine.provide({
    actions: {
      // Under its system id too: the talk's quota finds the wallet there (machines/talk/chat-quota.actors.ts).
      startWallet: enqueueActions(({ context, enqueue, event }) => {
        assertEvent(event, 'xstate.done.actor.loadWallet');
        spawnLoaded(enqueue, event.output, { id: 'wallet', systemId: 'wallet', input: walletInputOf(context) });
      }),
    },
    actors: {
      imConnection, presence: composePresence(ports.presence, ports.presenceRetry), banner, idleHost, conversations, liveRooms: live,
      calls: composeCalls(ports, loaders), talks: composeTalks(loaders),
      loadWallet: fromPromise(async () => (await loadWallet()).composeWallet(walletPorts)),
    },
  });
}
