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
import { assign, emit, fromPromise } from 'xstate';
import { setup } from '../setup';

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
  | { type: 'banner.show'; item: BannerItem }
  | { type: 'banner.tap' }
  | { type: 'banner.dismiss' };

export type BannerEmitted = { type: 'banner.navigate'; to: string };

/** Where a tap on `item` goes, or null when it goes nowhere. */
export function tapTarget(item: BannerItem, customerServiceId: string | null): string | null {
  if (item.recharge || !item.from) return null;
  if (customerServiceId !== null && item.from === customerServiceId) return '/customer-talk';
  return `/talk?${new URLSearchParams({ to: item.from, taPath: 'banner' })}`;
}

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
    showEventItem: assign({ current: ({ event }) => (event.type === 'banner.show' ? event.item : null), queued: null }),
    showQueued: assign({ current: ({ context }) => context.queued, queued: null }),
    clear: assign({ current: null, queued: null }),
    setAvatar: assign({ current: ({ context }, avatar: string | null) => (context.current ? { ...context.current, avatar } : null) }),
    navigate: emit(({ context }) => ({
      type: 'banner.navigate' as const,
      to: context.current ? tapTarget(context.current, context.customerServiceId) ?? '' : '',
    })),
  },
}).createMachine({
  id: 'banner',
  context: { current: null, queued: null, customerServiceId: null },
  invoke: {
    id: 'customerService',
    src: 'customerService',
    onDone: { actions: assign({ customerServiceId: ({ event }) => event.output }) },
  },
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
