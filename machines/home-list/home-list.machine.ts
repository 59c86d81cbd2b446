/**
 * The home list (SPEC §2 / with its sub-views content, liveList, match, online; the Home
 * paragraph; §3 Home tab; §7 indexTag, anchorList, getCountryList, getAppPicByType,
 * batchQueryYxStat; §9 home page size 10, follow live list 100, lookups in groups of 100).
 *
 * Parallel regions:
 *   setup:    loading ─done─▶ ready (tags, countries, banners) ─error─▶ failed ─home.retry─▶ loading
 *   statuses: waiting ─statusInterval | home.refreshStatuses─▶ refreshing ─▶ waiting
 *             (the listed people's online status, looked up in batches of 100)
 *   match:    closed ─match.start─▶ searching ─▶ found | none | failed ─match.next─▶ searching; match.close ─▶ closed
 *
 * Tabs: All first (it needs nothing from the server, so its first page loads while the tags
 * do), then the tag tabs (children of the first parent tag), Live, and for hosts Users (the
 * 'online' sub-view: a host's users to call). Each tab is a homeTab child, spawned the first
 * time it is shown and kept, so its pages stay when another tab is shown (the view keeps each
 * tab's scroll position). The Live tab has a second list, the followed lives (page of 100).
 * A country filter applies to the host tabs; each restarts its list with it.
 */
import { assign, enqueueActions, fromPromise, sendTo } from 'xstate';
import { setup } from '../setup';
import type { ActorRefFrom } from 'xstate';
import { createPagedListMachine, errorText } from '../paged-list/paged-list.machine';
import { filtersByCountry, homeTabMachine } from './home-tab.machine';
import type { HomeTabDef } from './home-tab.machine';
import type { Banner, Country, HomeItem, HomeSetup, HostCard, ListQuery, OnlineStatus } from './home-list.port';
import { HOME_PAGE_SIZE } from './home-list.port';

/** SPEC §9: the follow live list pages by 100 (the home list by HOME_PAGE_SIZE, declared with the port). */
export const FOLLOWED_LIVE_PAGE_SIZE = 100;

export const ALL_TAB: HomeTabDef = { key: 'all', kind: 'all', label: 'All', tagId: 0 };
export const LIVE_TAB: HomeTabDef = { key: 'live', kind: 'live', label: 'Live', tagId: 0 };
export const USERS_TAB: HomeTabDef = { key: 'users', kind: 'users', label: 'Users', tagId: 0 };

export const followedLiveMachine = createPagedListMachine<HomeItem, ListQuery>({ keyOf: (item) => item.userId });

export type HomeTabRef = ActorRefFrom<typeof homeTabMachine>;
export type FollowedLiveRef = ActorRefFrom<typeof followedLiveMachine>;

export interface HomeListInput {
  /** Hosts get the Users tab. */
  isHost: boolean;
  pageSize?: number;
}

export interface HomeListContext {
  isHost: boolean;
  pageSize: number;
  tabs: HomeTabDef[];
  /** The key of the tab on screen. */
  active: string;
  /** The tabs shown so far, by key. */
  lists: Record<string, HomeTabRef>;
  followedLive: FollowedLiveRef | null;
  countries: readonly Country[];
  /** The country filter; empty: every country. */
  countryIds: readonly number[];
  banners: readonly Banner[];
  /** Online status looked up since the pages loaded, by IM account. */
  statuses: Readonly<Record<string, OnlineStatus>>;
  match: HostCard | null;
  /** Why the tags, countries and banners did not load. */
  setupError: string | null;
  /** Why the last match search failed. */
  matchError: string | null;
}

export type HomeListEvent =
  | { type: 'tab.select'; key: string }
  | { type: 'home.setCountries'; countryIds: readonly number[] }
  | { type: 'home.retry' }
  | { type: 'home.refreshStatuses' }
  | { type: 'match.start' }
  | { type: 'match.next' }
  | { type: 'match.close' };

export interface StatusLookupInput {
  accounts: readonly string[];
}

export interface MatchInput {
  countryIds: readonly number[];
  /** The host shown now, not to be matched again at once. */
  previous: number | null;
}

const tabsOf = (isHost: boolean, setup: HomeSetup | null): HomeTabDef[] => [
  ALL_TAB,
  ...(setup?.tags ?? []).map((t): HomeTabDef => ({ key: `tag:${t.id}`, kind: 'tag', label: t.tagName, tagId: t.id })),
  LIVE_TAB,
  ...(isHost ? [USERS_TAB] : []),
];

/** The IM accounts on the tab shown, for the status lookup. */
export function listedAccounts(context: Pick<HomeListContext, 'active' | 'lists' | 'followedLive'>): string[] {
  const tab = context.lists[context.active]?.getSnapshot().context.items ?? [];
  const live = context.active === LIVE_TAB.key ? context.followedLive?.getSnapshot().context.items ?? [] : [];
  return [...new Set([...tab, ...live].map((item) => item.yxAccid))];
}

export const homeListMachine = setup({
  types: {
    input: {} as HomeListInput,
    context: {} as HomeListContext,
    events: {} as HomeListEvent,
  },
  actors: {
    loadSetup: fromPromise<HomeSetup, void>(() => Promise.reject(new Error('loadSetup not provided'))),
    lookupStatuses: fromPromise<Readonly<Record<string, OnlineStatus>>, StatusLookupInput>(
      () => Promise.reject(new Error('lookupStatuses not provided')),
    ),
    findMatch: fromPromise<HostCard | null, MatchInput>(() => Promise.reject(new Error('findMatch not provided'))),
    homeTab: homeTabMachine,
    followedLive: followedLiveMachine,
  },
  delays: {
    /** How often the listed people's online status is looked up again while the home is shown. */
    statusInterval: 30_000,
  },
  guards: {
    knownTab: ({ context, event }) => event.type === 'tab.select' && context.tabs.some((t) => t.key === event.key),
    otherCountries: ({ context, event }) => event.type === 'home.setCountries'
      && (event.countryIds.length !== context.countryIds.length || event.countryIds.some((id, i) => id !== context.countryIds[i])),
    matched: (_, output: HostCard | null) => output !== null,
  },
  actions: {
    /** Shows a tab, spawning its list the first time (SPEC §3: each tab holds its own pages). */
    showTab: enqueueActions(({ context, event, enqueue }) => {
      const key = event.type === 'tab.select' ? event.key : context.active;
      const tab = context.tabs.find((t) => t.key === key);
      if (!tab) return;
      enqueue.assign({ active: key });
      if (context.lists[key]) return;
      enqueue.assign({
        lists: ({ spawn }) => ({
          ...context.lists,
          [key]: spawn('homeTab', {
            id: `tab:${key}`,
            input: { tab, pageSize: context.pageSize, countryIds: context.countryIds },
          }) as HomeTabRef,
        }),
      });
      if (tab.kind === 'live' && !context.followedLive) {
        enqueue.assign({
          followedLive: ({ spawn }) => spawn('followedLive', {
            id: 'followedLive',
            input: { pageSize: FOLLOWED_LIVE_PAGE_SIZE, query: { source: 'followedLive' } },
          }) as FollowedLiveRef,
        });
      }
    }),
    applyCountries: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'home.setCountries') return;
      const countryIds = [...new Set(event.countryIds)];
      enqueue.assign({ countryIds });
      for (const tab of context.tabs) {
        const ref = context.lists[tab.key];
        if (ref && filtersByCountry(tab)) enqueue(sendTo(ref, { type: 'tab.setCountries', countryIds }));
      }
    }),
  },
}).createMachine({
  id: 'homeList',
  context: ({ input, spawn }) => {
    const pageSize = Math.max(1, Math.floor(input.pageSize ?? HOME_PAGE_SIZE));
    return {
      isHost: input.isHost,
      pageSize,
      tabs: tabsOf(input.isHost, null),
      active: ALL_TAB.key,
      // The All tab loads at once, alongside the tags.
      lists: { [ALL_TAB.key]: spawn('homeTab', { id: `tab:${ALL_TAB.key}`, input: { tab: ALL_TAB, pageSize, countryIds: [] } }) },
      followedLive: null,
      countries: [],
      countryIds: [],
      banners: [],
      statuses: {},
      match: null,
      setupError: null,
      matchError: null,
    };
  },
  type: 'parallel',
  on: {
    'tab.select': { guard: 'knownTab', actions: 'showTab' },
    'home.setCountries': { guard: 'otherCountries', actions: 'applyCountries' },
  },
  states: {
    setup: {
      initial: 'loading',
      states: {
        loading: {
          entry: assign({ setupError: null }),
          invoke: {
            id: 'loadSetup',
            src: 'loadSetup',
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                tabs: tabsOf(context.isHost, event.output),
                countries: event.output.countries,
                banners: event.output.banners,
              })),
            },
            onError: {
              target: 'failed',
              actions: assign({ setupError: ({ event }) => errorText(event.error) }),
            },
          },
        },
        /** Tags, countries and banners did not load; the All, Live and Users tabs still work. */
        failed: { on: { 'home.retry': 'loading' } },
        ready: {},
      },
    },
    statuses: {
      initial: 'waiting',
      states: {
        waiting: {
          after: { statusInterval: 'refreshing' },
          on: { 'home.refreshStatuses': 'refreshing' },
        },
        refreshing: {
          invoke: {
            id: 'lookupStatuses',
            src: 'lookupStatuses',
            input: ({ context }) => ({ accounts: listedAccounts(context) }),
            onDone: { target: 'waiting', actions: assign({ statuses: ({ context, event }) => ({ ...context.statuses, ...event.output }) }) },
            // Stale dots are no reason to bother anyone; the next round tries again.
            onError: 'waiting',
          },
        },
      },
    },
    match: {
      initial: 'closed',
      on: { 'match.close': { target: '.closed', actions: assign({ match: null }) } },
      states: {
        closed: { on: { 'match.start': 'searching' } },
        /** Picking a host who is online now (SPEC §2 / match). */
        searching: {
          invoke: {
            id: 'findMatch',
            src: 'findMatch',
            input: ({ context }) => ({ countryIds: context.countryIds, previous: context.match?.userId ?? null }),
            onDone: [
              { guard: { type: 'matched', params: ({ event }) => event.output }, target: 'found', actions: assign({ match: ({ event }) => event.output }) },
              { target: 'none', actions: assign({ match: null }) },
            ],
            onError: {
              target: 'failed',
              actions: assign({ match: null, matchError: ({ event }) => errorText(event.error) }),
            },
          },
        },
        found: { on: { 'match.next': 'searching' } },
        /** Nobody is online now. */
        none: { on: { 'match.next': 'searching' } },
        failed: { on: { 'match.next': 'searching' } },
      },
    },
  },
});

export type HomeListMachine = typeof homeListMachine;
export type HomeListRef = ActorRefFrom<HomeListMachine>;
