/**
 * Generated-path tests of one home tab (SPEC §3 Home tab, §4 Home list paging) with a
 * manual-mode `loadPage` whose answers the test gives, plus scenarios for the All tab's
 * 'more offline anchors' expansion, pulls, stale answers and the country filter.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { host } from './home-list.fixtures';
import type { HomeItem } from './home-list.port';
import {
  selectCanExpand, selectDisabled, selectExpanded, selectFinished, selectHasMore, selectListOption, selectLoadingMore,
  selectMoreFailed, selectRefreshError, selectRefreshing, selectTabItems, selectTabPhase, selectTabSettled,
} from './home-list.selectors';
import { homeTabMachine, mainQuery, offlineQuery } from './home-tab.machine';
import type { HomeTabDef, HomeTabInput, LoadPageInput } from './home-tab.machine';

const PAGE = 2;
const ALL: HomeTabDef = { key: 'all', kind: 'all', label: 'All', tagId: 0 };
const TAG: HomeTabDef = { key: 'tag:12', kind: 'tag', label: 'Popular', tagId: 12 };

const full = (): HomeItem[] => [host(), host()];
const short = (): HomeItem[] => [host()];

function manual() {
  const pending = new PendingCalls();
  const logic = homeTabMachine.provide({
    actors: { loadPage: fromPromise<HomeItem[], LoadPageInput>(({ input, self }) => pending.add(self.id, [input])) },
  });
  return { pending, logic };
}

const samples: AnyEventObject[] = [
  { type: 'tab.loadMore' }, { type: 'tab.refresh' }, { type: 'tab.retry' }, { type: 'tab.expandMore' },
  { type: 'tab.setCountries', countryIds: [2] }, { type: 'tab.setCountries', countryIds: [] },
  ...['loadFirst', 'loadMore', 'loadOffline', 'reload'].flatMap((id) => [
    { type: `xstate.done.actor.${id}`, output: 'full' },
    { type: `xstate.done.actor.${id}`, output: 'short' },
    { type: `xstate.error.actor.${id}`, error: new Error(`${id} failed`) },
  ]),
];

/** The model's stand-in outputs ('full' / 'short') as pages: the machine only counts them. */
const pageOf = (output: unknown): HomeItem[] => (output === 'full' ? full() : short());

const modelEvents = samples.map((e) => (e.type.startsWith('xstate.done') ? { ...e, output: pageOf(e.output) } : e));

async function replay(input: HomeTabInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, logic } = manual();
  const actor = createActor(logic, { input, inspect }).start();
  for (const { event, state } of steps) {
    const [, kind, , id] = event.type.split('.');
    const payload = event as AnyEventObject;
    if (kind === 'done') pending.latest<HomeItem[]>(id!).resolve(payload.output);
    else if (kind === 'error') pending.latest(id!).reject(payload.error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    const { context } = snapshot;
    // The model merges states by their serialized context; compare what it keeps.
    expect(serialize(context)).toEqual(serialize(state.context));
    // The page asked for: page 1 of the first list on a first load and on a pull, the next one on scroll.
    const main = (page: number) => [{ query: mainQuery(input.tab, context.countryIds), page, pageSize: PAGE }];
    if (snapshot.matches('loading')) expect(pending.latest('loadFirst').args).toEqual(main(1));
    if (snapshot.matches('refreshing')) expect(pending.latest('reload').args).toEqual(main(1));
    if (snapshot.matches({ listed: 'loadingMore' })) expect(pending.latest('loadMore').args).toEqual(main(context.currentPage + 1));
    if (snapshot.matches({ listed: { offline: 'loading' } })) {
      expect(pending.latest('loadOffline').args)
        .toEqual([{ query: offlineQuery(context.countryIds), page: context.moreCurrentPage + 1, pageSize: PAGE }]);
    }
    // Only the All tab expands, and only once its first list is finished.
    if (snapshot.matches({ listed: 'offline' })) {
      expect(input.tab.kind).toBe('all');
      expect(context.finished).toBe(true);
    }
    if (snapshot.matches('failed')) expect(context.items).toEqual([]);
    if (snapshot.matches({ listed: 'end' })) expect(context.finished).toBe(true);
    if (snapshot.matches({ listed: 'ready' })) expect(context.finished).toBe(false);
    expect(context.items.length).toBeLessThanOrEqual((context.currentPage + context.moreCurrentPage) * PAGE);
    expect(selectDisabled(snapshot)).toBe(!(snapshot.matches({ listed: 'ready' }) || snapshot.matches({ listed: { offline: 'ready' } })));
  }
  actor.stop();
}

/** Where a failed pull returns to depends on these; items and pages grow without end, so they stay out. */
function serialize(c: unknown) {
  const { finished, moreFinished, moreCurrentPage, countryIds, error } = c as {
    finished: boolean; moreFinished: boolean; moreCurrentPage: number; countryIds: number[]; error: string | null;
  };
  return { finished, moreFinished, expanded: moreCurrentPage > 0, countryIds, error };
}

describeGeneratedPaths('homeTab', homeTabMachine, {
  events: modelEvents,
  inputs: {
    'All tab': { tab: ALL, pageSize: PAGE, countryIds: [] },
    'tag tab': { tab: TAG, pageSize: PAGE, countryIds: [1] },
  },
  serializeContext: serialize,
  minPaths: 30,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('[§3 Home tab, §4 Home list paging] a home tab', () => {
  async function started(tab: HomeTabDef, first: HomeItem[] = full(), countryIds: number[] = []) {
    const m = manual();
    const actor = createActor(m.logic, { input: { tab, pageSize: PAGE, countryIds } }).start();
    m.pending.next<HomeItem[]>('loadFirst').resolve(first);
    await flush();
    return { ...m, actor };
  }

  it('the All tab pages online hosts (onlineStatus 1), then its expansion pages offline ones (3) by moreCurrentPage', async () => {
    const { actor, pending } = await started(ALL, full(), []);
    expect(pending.argsOf('loadFirst')[0]).toEqual([{ query: { source: 'hosts', onlineStatus: 1, tagId: 0, countryIds: [] }, page: 1, pageSize: PAGE }]);
    actor.send({ type: 'tab.expandMore' });
    expect(selectExpanded(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'tab.loadMore' });
    pending.latest<HomeItem[]>('loadMore').resolve(short());
    await flush();
    expect(selectCanExpand(actor.getSnapshot())).toBe(true);
    expect(selectFinished(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'tab.expandMore' });
    expect(pending.latest('loadOffline').args).toEqual([{ query: { source: 'hosts', onlineStatus: 3, tagId: 0, countryIds: [] }, page: 1, pageSize: PAGE }]);
    expect(selectLoadingMore(actor.getSnapshot())).toBe(true);
    expect(selectListOption(actor.getSnapshot())).toMatchObject({ currentPage: 2, moreCurrentPage: 0, onlineStatus: 3 });
    pending.latest<HomeItem[]>('loadOffline').resolve(full());
    await flush();
    actor.send({ type: 'tab.loadMore' });
    expect(pending.latest('loadOffline').args).toEqual([expect.objectContaining({ page: 2 })]);
    pending.latest<HomeItem[]>('loadOffline').resolve(short());
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual({ listed: { offline: 'finished' } });
    expect(snapshot.context).toMatchObject({ currentPage: 2, moreCurrentPage: 2, finished: true, moreFinished: true });
    expect(selectTabItems(snapshot)).toHaveLength(2 + 1 + 2 + 1);
    expect(selectHasMore(snapshot)).toBe(false);
    actor.send({ type: 'tab.loadMore' });
    expect(pending.count('loadOffline')).toBe(2);
  });

  it('a tag tab lists everyone with the tag (onlineStatus 0) in the chosen countries and never expands', async () => {
    const { actor, pending } = await started(TAG, short(), [3, 5]);
    expect(pending.argsOf('loadFirst')[0]).toEqual([{ query: { source: 'hosts', onlineStatus: 0, tagId: 12, countryIds: [3, 5] }, page: 1, pageSize: PAGE }]);
    expect(actor.getSnapshot().value).toEqual({ listed: 'end' });
    expect(selectCanExpand(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'tab.expandMore' });
    expect(actor.getSnapshot().value).toEqual({ listed: 'end' });
  });

  it('pull resets to page 1 and closes the expansion; a late page of the old list is dropped', async () => {
    const { actor, pending } = await started(ALL, short());
    actor.send({ type: 'tab.expandMore' });
    pending.latest<HomeItem[]>('loadOffline').resolve(full());
    await flush();
    actor.send({ type: 'tab.loadMore' });
    const stale = pending.latest<HomeItem[]>('loadOffline');
    actor.send({ type: 'tab.refresh' });
    expect(selectRefreshing(actor.getSnapshot())).toBe(true);
    expect(selectTabItems(actor.getSnapshot())).toHaveLength(3);
    pending.latest<HomeItem[]>('reload').resolve(full());
    await flush();
    stale.resolve(full());
    await flush();
    expect(actor.getSnapshot().value).toEqual({ listed: 'ready' });
    expect(actor.getSnapshot().context).toMatchObject({ currentPage: 1, moreCurrentPage: 0, moreFinished: false });
    expect(selectTabItems(actor.getSnapshot())).toHaveLength(2);
  });

  it('a failed pull keeps the items and the expansion where they were, and says why', async () => {
    const { actor, pending } = await started(ALL, short());
    actor.send({ type: 'tab.expandMore' });
    pending.latest<HomeItem[]>('loadOffline').resolve(full());
    await flush();
    actor.send({ type: 'tab.refresh' });
    pending.latest('reload').reject(new Error('Network Connection Failure'));
    await flush();
    expect(actor.getSnapshot().value).toEqual({ listed: { offline: 'ready' } });
    expect(selectRefreshError(actor.getSnapshot())).toBe('Network Connection Failure');
    expect(selectTabPhase(actor.getSnapshot())).toBe('listed');
    actor.send({ type: 'tab.loadMore' });
    expect(pending.latest('loadOffline').args).toEqual([expect.objectContaining({ page: 2 })]);
  });

  it('a failed next page keeps the items; retry asks for the same page', async () => {
    const { actor, pending } = await started(TAG);
    actor.send({ type: 'tab.loadMore' });
    pending.latest('loadMore').reject(new Error('Server Failure'));
    await flush();
    expect(selectMoreFailed(actor.getSnapshot())).toBe(true);
    expect(selectRefreshError(actor.getSnapshot())).toBeNull();
    expect(selectTabSettled(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'tab.retry' });
    expect(pending.latest('loadMore').args).toEqual([expect.objectContaining({ page: 2 })]);
  });

  it('another country filter starts the list afresh; the same filter changes nothing', async () => {
    const { actor, pending } = await started(TAG, full(), [1]);
    actor.send({ type: 'tab.setCountries', countryIds: [1] });
    expect(actor.getSnapshot().value).toEqual({ listed: 'ready' });
    actor.send({ type: 'tab.loadMore' });
    actor.send({ type: 'tab.setCountries', countryIds: [4] });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(selectTabItems(actor.getSnapshot())).toEqual([]);
    expect(pending.latest('loadFirst').args).toEqual([expect.objectContaining({ query: expect.objectContaining({ countryIds: [4] }), page: 1 })]);
    expect(pending.latest('loadMore').settled).toBe(false);
  });

  it('the live and users lists ignore the country filter', async () => {
    const live: HomeTabDef = { key: 'live', kind: 'live', label: 'Live', tagId: 0 };
    const { actor, pending } = await started(live, short(), [2]);
    expect(pending.argsOf('loadFirst')[0]).toEqual([{ query: { source: 'live' }, page: 1, pageSize: PAGE }]);
    actor.send({ type: 'tab.setCountries', countryIds: [3] });
    expect(actor.getSnapshot().value).toEqual({ listed: 'end' });
    expect(mainQuery({ key: 'users', kind: 'users', label: 'Users', tagId: 0 }, [1])).toEqual({ source: 'users', onlineStatus: 0 });
  });

  it('a row that moved over a page boundary shows once', async () => {
    const a = host(900);
    const b = host(901);
    const { actor, pending } = await started(TAG, [a, b]);
    actor.send({ type: 'tab.loadMore' });
    pending.latest<HomeItem[]>('loadMore').resolve([b, host(902)]);
    await flush();
    expect(selectTabItems(actor.getSnapshot()).map((h) => h.userId)).toEqual([900, 901, 902]);
  });
});
