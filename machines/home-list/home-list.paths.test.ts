/**
 * Generated-path tests of the home list (SPEC §2 /, §3 Home tab, §9 lookups in groups of 100):
 * every path is replayed on the real actor with a manual-mode port and a simulated clock,
 * checking the state and its invariants at every step; then scenarios for the tabs, the
 * country filter, the batched status lookup and the match.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { MATCH_POOL, batches, composeHomeList, findMatch, lookupInBatches } from './home-list.actors';
import { ALL_TAB, LIVE_TAB, USERS_TAB, homeListMachine, listedAccounts } from './home-list.machine';
import type { HomeListInput, StatusLookupInput } from './home-list.machine';
import type { HomeItem, HomePort, HomeSetup, HostCard, ListQuery, OnlineStatus } from './home-list.port';
import {
  selectActiveKey, selectMatch, selectMatchPhase, selectSetupError, selectSetupPhase, selectStatuses, selectTabItems, selectTabRef,
  selectTabs, statusOf,
} from './home-list.selectors';
import { filtersByCountry } from './home-tab.machine';
import { host } from './home-list.fixtures';

const SETUP: HomeSetup = {
  tags: [{ id: 11, tagName: 'New' }, { id: 12, tagName: 'Popular' }],
  countries: [{ countryId: 2, countryName: 'Philippines', countryCode: 'PH' }],
  banners: [{ id: 1, title: 'Invite friends', picUrl: '/banners/invite.svg', linkUrl: '/invite' }],
};

/** A port whose every call waits for the test. */
function manualPort() {
  const pending = new PendingCalls();
  let random = 0;
  const port: HomePort = {
    loadSetup: () => pending.add('loadSetup', []),
    loadPage: (query, page, pageSize) => pending.add(`page:${query.source}`, [query, page, pageSize]),
    lookupStatuses: (accounts) => pending.add('lookupStatuses', [accounts]),
    random: () => random,
  };
  return { port, pending, setRandom: (n: number) => { random = n; } };
}

const matchHost = host(500);
const samples: AnyEventObject[] = [
  { type: 'tab.select', key: 'tag:11' }, { type: 'tab.select', key: LIVE_TAB.key }, { type: 'tab.select', key: ALL_TAB.key },
  { type: 'tab.select', key: 'tag:99' },
  { type: 'home.setCountries', countryIds: [2] }, { type: 'home.setCountries', countryIds: [] },
  { type: 'home.retry' }, { type: 'home.refreshStatuses' },
  { type: 'match.start' }, { type: 'match.next' }, { type: 'match.close' },
  { type: 'xstate.done.actor.loadSetup', output: SETUP },
  { type: 'xstate.error.actor.loadSetup', error: new Error('Server Failure') },
  { type: 'xstate.done.actor.lookupStatuses', output: { yx1: 2 } },
  { type: 'xstate.error.actor.lookupStatuses', error: new Error('Server Failure') },
  { type: 'xstate.done.actor.findMatch', output: matchHost },
  { type: 'xstate.done.actor.findMatch', output: null },
  { type: 'xstate.error.actor.findMatch', error: new Error('Network Connection Failure') },
  { type: afterEvent('statusInterval', 'homeList.statuses.waiting') },
];

const serialize = (c: unknown) => ({ countryIds: (c as { countryIds: number[] }).countryIds });

async function replay(input: HomeListInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { port, pending } = manualPort();
  const clock = new SimulatedClock();
  // The batching (lookupInBatches) has its own test; here the lookup waits for the test even with nobody listed.
  const logic = composeHomeList(port).provide({
    actors: {
      lookupStatuses: fromPromise<Readonly<Record<string, OnlineStatus>>, StatusLookupInput>(
        ({ input: lookup }) => pending.add('lookupStatuses', [lookup.accounts]),
      ),
    },
  });
  const actor = createActor(logic, { input, clock, inspect }).start();
  for (const { event, state } of steps) {
    const [, kind, , id] = event.type.split('.');
    const payload = event as AnyEventObject;
    if (event.type.startsWith('xstate.after.')) clock.increment(30_000);
    else if (id === 'findMatch') {
      // The match reads a page of online hosts (MATCH_POOL of them) through the port.
      const call = pending.open().filter((c) => c.method === 'page:hosts' && c.args[2] === MATCH_POOL).at(-1)!;
      if (kind === 'done') call.resolve(payload.output ? [payload.output] : []);
      else call.reject(payload.error);
    } else if (kind === 'done') pending.latest(id!).resolve(payload.output);
    else if (kind === 'error') pending.latest(id!).reject(payload.error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(serialize(snapshot.context)).toEqual(serialize(state.context));
    const { context } = snapshot;
    // The tab shown has its list; only tabs that exist have lists; the followed lives come with the Live tab.
    expect(context.lists[context.active]).toBeDefined();
    for (const key of Object.keys(context.lists)) expect(context.tabs.map((t) => t.key)).toContain(key);
    expect(context.followedLive !== null).toBe(LIVE_TAB.key in context.lists);
    // Every host tab pages with the filter of the home.
    for (const tab of context.tabs) {
      const ref = context.lists[tab.key];
      if (ref && filtersByCountry(tab)) expect(ref.getSnapshot().context.countryIds).toEqual(context.countryIds);
    }
    if (snapshot.matches({ statuses: 'refreshing' })) expect(pending.latest('lookupStatuses').args).toEqual([listedAccounts(context)]);
    if (snapshot.matches({ match: 'searching' })) expect(pending.open().some((c) => c.method === 'page:hosts')).toBe(true);
    if (snapshot.matches({ match: 'found' })) expect(selectMatch(snapshot)).not.toBeNull();
    if (snapshot.matches({ setup: 'ready' })) expect(selectTabs(snapshot).map((t) => t.label)).toEqual(['All', 'New', 'Popular', 'Live', 'Users']);
    if (snapshot.matches({ setup: 'failed' })) expect(selectSetupError(snapshot)).toBe('Server Failure');
  }
  actor.stop();
}

describeGeneratedPaths('homeList', homeListMachine, {
  events: samples,
  inputs: { host: { isHost: true } },
  serializeContext: serialize,
  minPaths: 50,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('[§2 / Home] the home list', () => {
  function started(input: HomeListInput = { isHost: true }) {
    const m = manualPort();
    const clock = new SimulatedClock();
    const actor = createActor(composeHomeList(m.port), { input, clock }).start();
    return { ...m, clock, actor };
  }

  it('loads the All tab at once, alongside the tags; the tags become tabs between All and Live', async () => {
    const { actor, pending } = started();
    expect(pending.open().map((c) => c.method).sort()).toEqual(['loadSetup', 'page:hosts']);
    expect(pending.next('page:hosts').args).toEqual([{ source: 'hosts', onlineStatus: 1, tagId: 0, countryIds: [] }, 1, 10]);
    expect(selectTabs(actor.getSnapshot()).map((t) => t.key)).toEqual(['all', 'live', 'users']);
    pending.next<HomeSetup>('loadSetup').resolve(SETUP);
    await flush();
    expect(selectSetupPhase(actor.getSnapshot())).toBe('ready');
    expect(selectTabs(actor.getSnapshot()).map((t) => t.key)).toEqual(['all', 'tag:11', 'tag:12', 'live', 'users']);
  });

  it('a non-host gets no Users tab', () => {
    const { actor } = started({ isHost: false });
    expect(selectTabs(actor.getSnapshot()).map((t) => t.key)).toEqual(['all', 'live']);
  });

  it('each tab keeps its pages when another is shown', async () => {
    const { actor, pending } = started();
    pending.next<HomeItem[]>('page:hosts').resolve([host(1), host(2)]);
    pending.next<HomeSetup>('loadSetup').resolve(SETUP);
    await flush();
    actor.send({ type: 'tab.select', key: 'tag:12' });
    expect(pending.next('page:hosts').args).toEqual([{ source: 'hosts', onlineStatus: 0, tagId: 12, countryIds: [] }, 1, 10]);
    actor.send({ type: 'tab.select', key: 'all' });
    const all = selectTabRef(actor.getSnapshot(), 'all')!;
    expect(selectTabItems(all.getSnapshot()).map((h) => h.userId)).toEqual([1, 2]);
    expect(selectActiveKey(actor.getSnapshot())).toBe('all');
    actor.send({ type: 'tab.select', key: 'tag:12' });
    expect(pending.count('page:hosts')).toBe(2);
  });

  it('the Live tab lists live rooms and the followed lives (a page of 100); the Users tab a host\'s users', async () => {
    const { actor, pending } = started();
    actor.send({ type: 'tab.select', key: LIVE_TAB.key });
    expect(pending.next('page:live').args).toEqual([{ source: 'live' }, 1, 10]);
    expect(pending.next('page:followedLive').args).toEqual([{ source: 'followedLive' }, 1, 100]);
    actor.send({ type: 'tab.select', key: USERS_TAB.key });
    expect(pending.next('page:users').args).toEqual([{ source: 'users', onlineStatus: 0 }, 1, 10]);
  });

  it('a country filter restarts the host tabs shown so far, not the live list', async () => {
    const { actor, pending } = started();
    pending.next<HomeItem[]>('page:hosts').resolve([host(1)]);
    actor.send({ type: 'tab.select', key: LIVE_TAB.key });
    await flush();
    actor.send({ type: 'home.setCountries', countryIds: [3, 3, 5] });
    expect(pending.latest('page:hosts').args).toEqual([{ source: 'hosts', onlineStatus: 1, tagId: 0, countryIds: [3, 5] }, 1, 10]);
    expect(pending.count('page:live')).toBe(1);
  });

  it('[§9] looks up the listed people\'s online status in batches of 100, every 30 s and on request', async () => {
    const { actor, pending, clock } = started();
    const hosts = Array.from({ length: 250 }, (_, i) => host(1000 + i, { onlineGroupStatus: 3 }));
    pending.next<HomeItem[]>('page:hosts').resolve(hosts);
    await flush();
    clock.increment(30_000);
    // One batch after another: 100, 100, 50.
    const accounts = hosts.map((h) => h.yxAccid);
    for (const batch of [accounts.slice(0, 100), accounts.slice(100, 200), accounts.slice(200)]) {
      const call = pending.next<Record<string, OnlineStatus>>('lookupStatuses');
      expect(call.args).toEqual([batch]);
      call.resolve(Object.fromEntries(batch.map((a) => [a, 1 as const])));
      await flush();
    }
    const statuses = selectStatuses(actor.getSnapshot());
    expect(statusOf(hosts[249]!, statuses)).toBe(1);
    expect(statusOf(host(7, { onlineGroupStatus: 2 }), statuses)).toBe(2);
    actor.send({ type: 'home.refreshStatuses' });
    expect(pending.open().filter((c) => c.method === 'lookupStatuses')).toHaveLength(1);
  });

  it('lookupInBatches asks in groups of at most 100 and merges the answers', async () => {
    const asked: number[] = [];
    const answer = await lookupInBatches({
      lookupStatuses: async (accounts) => {
        asked.push(accounts.length);
        return { [accounts[0]!]: 2 };
      },
    }, Array.from({ length: 250 }, (_, i) => `a${i}`));
    expect(asked).toEqual([100, 100, 50]);
    expect(answer).toEqual({ a0: 2, a100: 2, a200: 2 });
    expect(batches([], 100)).toEqual([]);
    expect(batches([1, 2, 3], 2)).toEqual([[1, 2], [3]]);
  });

  it('[§2 match] picks an online host at random, another one on Next; none when nobody is online', async () => {
    const online = [host(1), host(2), host(3), host(4, { onlineGroupStatus: 2 })];
    let random = 0.99;
    const port = {
      loadPage: async (query: ListQuery) => {
        expect(query).toEqual({ source: 'hosts', onlineStatus: 1, tagId: 0, countryIds: [2] });
        return online;
      },
      random: () => random,
    };
    expect((await findMatch(port, { countryIds: [2], previous: null }))?.userId).toBe(3);
    random = 0;
    expect((await findMatch(port, { countryIds: [2], previous: 1 }))?.userId).toBe(2);
    expect(await findMatch({ ...port, loadPage: async () => [] }, { countryIds: [2], previous: null })).toBeNull();
    expect((await findMatch({ ...port, loadPage: async () => [host(9)] }, { countryIds: [2], previous: 9 }))?.userId).toBe(9);
  });

  it('match: searching, found, next, close', async () => {
    const { actor, pending } = started();
    actor.send({ type: 'match.start' });
    expect(selectMatchPhase(actor.getSnapshot())).toBe('searching');
    pending.latest<HostCard[]>('page:hosts').resolve([matchHost]);
    await flush();
    expect(selectMatchPhase(actor.getSnapshot())).toBe('found');
    expect(selectMatch(actor.getSnapshot())?.userId).toBe(500);
    actor.send({ type: 'match.close' });
    expect(selectMatchPhase(actor.getSnapshot())).toBe('closed');
    expect(selectMatch(actor.getSnapshot())).toBeNull();
  });
});
