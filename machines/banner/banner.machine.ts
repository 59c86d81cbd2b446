/**
 * Incoming-message banner (SPEC §2; §9 banner auto-hide 5 s, notice throttle 2 s).
 *
 *   hidden ─banner.show─▶ showing.notice.fresh ─2 s─▶ showing.notice.open ─┐
 *   showing ─5 s / banner.dismiss / banner.tap─▶ hidden                    │
 *   a notice arriving in `fresh` waits (the newest wins) and shows once 2 s have passed;
 *   in `open` it replaces the banner at once.
 *
 * A tap opens /customer-talk for the customer-service account, the talk screen for anyone
 * else, and does nothing on a recharge notice.
 *
 * A message does not carry its sender's picture: beside the notice's timing, its sender's avatar
 * is looked up (showing.sender: choosing ─▶ lookingUp ─▶ pictured | fixedIcon, started again for each banner
 * shown) and shown once it answers; until then, and for system notices or a sender without one,
 * the fixed icon shows.
 */
import { assertEvent, assign, emit, enqueueActions, fromPromise } from 'xstate';
import { setup } from '../setup';
import { isRecharge, previewOf } from '../im/preview';
import type { ImConnectionEmitted } from '../im-connection/im-connection.types';
import type { ImMessage } from '../ports/im.port';
import { factsOf } from '../shared/facts-of';
import { openChatPeers } from '../shared/chat-peers';

export const TEXT_SYSTEM_SENDER = 'System information';

export interface BannerItem {
  /** Sender account; empty for system notices. */
  from: string;
  nick: string;
  /** Sender avatar, or null for the fixed icon. */
  avatar: string | null;
  preview: string;
  /** Recharge notices do nothing on tap. */
  recharge: boolean;
}

export interface BannerContext {
  current: BannerItem | null;
  queued: BannerItem | null;
  customerServiceId: string | null;
}

export type BannerEvent =
  /** An incoming message (the IM connection's, subscribed to): shown unless a chat shows it. */
  | { type: 'im.message'; message: ImMessage }
  | { type: 'banner.show'; item: BannerItem }
  | { type: 'banner.tap' }
  | { type: 'banner.dismiss' };

export type BannerEmitted = { type: 'banner.navigate'; to: string };

/** The banner for an incoming message (SPEC §2 incoming-message banner). */
export function bannerItemFor(message: ImMessage): BannerItem {
  const system = message.from === '' || isRecharge(message);
  return {
    from: message.from,
    nick: system ? TEXT_SYSTEM_SENDER : message.fromNick?.trim() || message.from,
    avatar: null,
    preview: previewOf(message),
    recharge: isRecharge(message),
  };
}

/** Where a tap on `item` goes, or null when it goes nowhere. */
export function tapTarget(item: BannerItem, customerServiceId: string | null): string | null {
  if (item.recharge || !item.from) return null;
  if (customerServiceId !== null && item.from === customerServiceId) return '/customer-talk';
  return `/talk?${new URLSearchParams({ to: item.from, taPath: 'banner' })}`;
}

/** Where a tap on the banner showing goes (the owner's navigation). */
export const navigationOf = (context: BannerContext): BannerEmitted => ({
  type: 'banner.navigate',
  to: context.current ? tapTarget(context.current, context.customerServiceId) ?? '' : '',
});

export const bannerMachine = setup({
  types: {
    context: {} as BannerContext,
    events: {} as BannerEvent,
    emitted: {} as BannerEmitted,
  },
  actors: {
    /** The customer-service account (`/api/im/getCustomerServiceList`), or null. */
    customerService: fromPromise<string | null, void>(() => Promise.resolve(null)),
    /** The avatar of the account, or null when it has none. */
    senderAvatar: fromPromise<string | null, { account: string }>(() => Promise.resolve(null)),
    /** The IM connection's messages, for as long as the banner lives. */
    messages: factsOf<ImConnectionEmitted>('imConnection', ['im.message']),
  },
  delays: {
    noticeThrottle: 2000,
    bannerTimeout: 5000,
  },
  guards: {
    hasQueued: ({ context }) => context.queued !== null,
    /** A person sent the banner showing (system notices, recharge ones too, keep the fixed icon). */
    fromPerson: ({ context }) => context.current !== null && context.current.from !== '' && !context.current.recharge,
    avatarFound: (_, avatar: string | null) => avatar !== null && avatar !== '',
    goesSomewhere: ({ context }) => context.current !== null && tapTarget(context.current, context.customerServiceId) !== null,
  },
  actions: {
    /** An incoming message shows, unless it is our own or an open chat (the talk screen's, the call's) shows it. */
    showMessage: enqueueActions(({ enqueue, event, system }) => {
      assertEvent(event, 'im.message');
      if (event.message.flow !== 'in' || openChatPeers(system).includes(event.message.sessionId)) return;
      enqueue.raise({ type: 'banner.show', item: bannerItemFor(event.message) });
    }),
    showEventItem: assign(({ event }) => {
      assertEvent(event, 'banner.show');
      return { current: event.item, queued: null };
    }),
    showQueued: assign({ current: ({ context }) => context.queued, queued: null }),
    clear: assign({ current: null, queued: null }),
    setAvatar: assign({ current: ({ context }, avatar: string | null) => (context.current ? { ...context.current, avatar } : null) }),
    navigate: emit(({ context }) => navigationOf(context)),
  },
}).createMachine({
  id: 'banner',
  context: { current: null, queued: null, customerServiceId: null },
  invoke: [
    {
      id: 'customerService',
      src: 'customerService',
      onDone: { actions: assign({ customerServiceId: ({ event }) => event.output }) },
    },
    { id: 'messages', src: 'messages' },
  ],
  on: { 'im.message': { actions: 'showMessage' } },
  initial: 'hidden',
  states: {
    hidden: {
      on: { 'banner.show': { target: 'showing', actions: 'showEventItem' } },
    },
    /** Two regions: the notice's own timing, and its sender's picture. */
    showing: {
      type: 'parallel',
      after: { bannerTimeout: { target: 'hidden', actions: 'clear' } },
      on: {
        'banner.dismiss': { target: 'hidden', actions: 'clear' },
        'banner.tap': [
          { guard: 'goesSomewhere', target: 'hidden', actions: ['navigate', 'clear'] },
          // A recharge notice: the tap does nothing, the banner stays until it times out.
        ],
      },
      states: {
        notice: {
          initial: 'fresh',
          states: {
            fresh: {
              after: {
                noticeThrottle: [
                  { guard: 'hasQueued', target: '#banner.showing', reenter: true, actions: 'showQueued' },
                  { target: 'open' },
                ],
              },
              on: { 'banner.show': { actions: assign({ queued: ({ event }) => event.item }) } },
            },
            open: {
              on: { 'banner.show': { target: '#banner.showing', reenter: true, actions: 'showEventItem' } },
            },
          },
        },
        // Started again with each banner shown (`showing` is re-entered), so an answer is always for the banner showing.
        sender: {
          initial: 'choosing',
          states: {
            choosing: {
              always: [{ guard: 'fromPerson', target: 'lookingUp' }, { target: 'fixedIcon' }],
            },
            lookingUp: {
              invoke: {
                id: 'senderAvatar',
                src: 'senderAvatar',
                input: ({ context }) => ({ account: context.current?.from ?? '' }),
                onDone: [
                  {
                    guard: { type: 'avatarFound', params: ({ event }) => event.output },
                    target: 'pictured',
                    actions: { type: 'setAvatar', params: ({ event }) => event.output },
                  },
                  { target: 'fixedIcon' },
                ],
                onError: 'fixedIcon',
              },
            },
            /** The sender's avatar shows. */
            pictured: {},
            /** A system notice, a sender without an avatar, or no answer: the fixed icon shows. */
            fixedIcon: {},
          },
        },
      },
    },
  },
});

export type BannerMachine = typeof bannerMachine;
