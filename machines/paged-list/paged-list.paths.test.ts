/**
 * Generated-path tests of the paged list (SPEC §4 Home list paging), with a manual-mode
 * `loadPage` whose answers the test gives, plus scenarios for paging, refresh, stale answers
 * and the pure helpers.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import {
  TEXT_LOAD_FAILED, appendPage, createPagedListMachine, errorText, isLastPage, pagedListMachine,
} from './paged-list.machine';
import type { Page, PageRequest, PagedListOptions } from './paged-list.machine';
import {
  selectError, selectHasMore, selectItems, selectLoadingMore, selectMoreFailed, selectPhase, selectRefreshError, selectRefreshing,
  selectSettled,
} from './paged-list.selectors';

const PAGE_SIZE = 2;
const full: Page<string> = { items: ['a', 'b'] };
const short: Page<string> = { items: ['c'] };

/** A list whose `loadPage` calls wait for the test, one pending call per invoke id. */
function manual<T = string>(options: PagedListOptions<T> = {}) {
  const pending = new PendingCalls();
  const logic = createPagedListMachine<T>(options).provide({
    actors: { loadPage: fromPromise<Page<T>, PageRequest>(({ input, self }) => pending.add(self.id, [input])) },
  });
  return { pending, logic };
}

const samples: AnyEventObject[] = [
  { type: 'list.loadMore' }, { type: 'list.refresh' }, { type: 'list.retry' },
  ...['loadFirst', 'loadMore', 'reload'].flatMap((id) => [
    { type: `xstate.done.actor.${id}`, output: full },
    { type: `xstate.done.actor.${id}`, output: short },
    { type: `xstate.error.actor.${id}`, error: new Error(`${id} failed`) },
  ]),
];

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, logic } = manual();
  const actor = createActor(logic, { input: { pageSize: PAGE_SIZE }, inspect }).start();
  for (const { event, state } of steps) {
    const [, kind, , id] = event.type.split('.');
    const payload = event as AnyEventObject;
    if (kind === 'done') pending.latest<Page<string>>(id!).resolve(payload.output);
    else if (kind === 'error') pending.latest(id!).reject(payload.error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(snapshot.context).toEqual(state.context);
    const { context } = snapshot;
    // The page asked for: page 1 on the first load and on a pull, the next one on scroll.
    if (snapshot.matches('loading')) expect(pending.latest('loadFirst').args).toEqual([{ page: 1, pageSize: PAGE_SIZE }]);
    if (snapshot.matches('refreshing')) expect(pending.latest('reload').args).toEqual([{ page: 1, pageSize: PAGE_SIZE }]);
    if (snapshot.matches({ listed: 'loadingMore' })) {
      expect(pending.latest('loadMore').args).toEqual([{ page: context.page + 1, pageSize: PAGE_SIZE }]);
    }
    if (snapshot.matches('failed')) {
      expect(context.items).toEqual([]);
      expect(context.error).not.toBeNull();
    }
    if (snapshot.matches({ listed: 'finished' })) expect(context.finished).toBe(true);
    if (snapshot.matches({ listed: 'ready' })) expect(context.finished).toBe(false);
    if (snapshot.matches({ listed: 'moreFailed' })) expect(context.error).not.toBeNull();
    expect(context.items.length).toBeLessThanOrEqual(context.page * PAGE_SIZE);
  }
  actor.stop();
}

describeGeneratedPaths('pagedList', pagedListMachine, {
  events: samples,
  inputs: { 'page size 2': { pageSize: PAGE_SIZE } },
  // Where a failed refresh returns to depends on whether the list had finished, and the
  // error line tells which load failed. Items and page grow without end, so they stay out.
  serializeContext: (c) => {
    const { finished, error } = c as { finished: boolean; error: string | null };
    return { finished, error };
  },
  minPaths: 20,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§4 Home list paging] the paged list', () => {
  async function listed(first: Page<string> = full) {
    const m = manual();
    const actor = createActor(m.logic, { input: { pageSize: PAGE_SIZE } }).start();
    m.pending.next<Page<string>>('loadFirst').resolve(first);
    await flush();
    return { ...m, actor };
  }

  it('scroll asks for the next page and appends it; a short page finishes the list', async () => {
    const { actor, pending } = await listed();
    actor.send({ type: 'list.loadMore' });
    expect(pending.latest('loadMore').args).toEqual([{ page: 2, pageSize: PAGE_SIZE }]);
    pending.latest<Page<string>>('loadMore').resolve({ items: ['c', 'd'] });
    await flush();
    actor.send({ type: 'list.loadMore' });
    expect(pending.latest('loadMore').args).toEqual([{ page: 3, pageSize: PAGE_SIZE }]);
    pending.latest<Page<string>>('loadMore').resolve({ items: ['e'] });
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual({ listed: 'finished' });
    expect(snapshot.context).toMatchObject({ items: ['a', 'b', 'c', 'd', 'e'], page: 3, finished: true, error: null });
    actor.send({ type: 'list.loadMore' });
    expect(pending.count('loadMore')).toBe(2);
  });

  it('a first page shorter than the page size (or empty) is the only page', async () => {
    const { actor } = await listed({ items: [] });
    expect(actor.getSnapshot().value).toEqual({ listed: 'finished' });
    expect(selectPhase(actor.getSnapshot())).toBe('empty');
    expect(selectHasMore(actor.getSnapshot())).toBe(false);
  });

  it('a second "load more" while a page is loading is ignored', async () => {
    const { actor, pending } = await listed();
    actor.send({ type: 'list.loadMore' });
    actor.send({ type: 'list.loadMore' });
    actor.send({ type: 'list.loadMore' });
    expect(pending.count('loadMore')).toBe(1);
    expect(selectLoadingMore(actor.getSnapshot())).toBe(true);
  });

  it('pull resets to page 1 and replaces the items', async () => {
    const { actor, pending } = await listed();
    actor.send({ type: 'list.loadMore' });
    pending.latest<Page<string>>('loadMore').resolve({ items: ['c', 'd'] });
    await flush();
    actor.send({ type: 'list.refresh' });
    expect(selectRefreshing(actor.getSnapshot())).toBe(true);
    expect(selectItems(actor.getSnapshot())).toEqual(['a', 'b', 'c', 'd']);
    expect(pending.latest('reload').args).toEqual([{ page: 1, pageSize: PAGE_SIZE }]);
    pending.latest<Page<string>>('reload').resolve({ items: ['new', 'a'] });
    await flush();
    expect(actor.getSnapshot().value).toEqual({ listed: 'ready' });
    expect(actor.getSnapshot().context).toMatchObject({ items: ['new', 'a'], page: 1, finished: false });
    actor.send({ type: 'list.loadMore' });
    expect(pending.latest('loadMore').args).toEqual([{ page: 2, pageSize: PAGE_SIZE }]);
  });

  it('a late answer for the page that was loading when the list was pulled is discarded', async () => {
    const { actor, pending } = await listed();
    actor.send({ type: 'list.loadMore' });
    const stale = pending.latest<Page<string>>('loadMore');
    actor.send({ type: 'list.refresh' });
    pending.latest<Page<string>>('reload').resolve({ items: ['x', 'y'] });
    await flush();
    stale.resolve({ items: ['old'] });
    await flush();
    expect(actor.getSnapshot().value).toEqual({ listed: 'ready' });
    expect(actor.getSnapshot().context).toMatchObject({ items: ['x', 'y'], page: 1 });
  });

  it('a late failure of a dropped page is discarded too', async () => {
    const { actor, pending } = await listed();
    actor.send({ type: 'list.loadMore' });
    const stale = pending.latest('loadMore');
    actor.send({ type: 'list.refresh' });
    stale.reject(new Error('late'));
    await flush();
    expect(actor.getSnapshot().value).toBe('refreshing');
    expect(selectError(actor.getSnapshot())).toBeNull();
  });

  it('a failed refresh keeps the items and says why; a finished list stays finished', async () => {
    const { actor, pending } = await listed(short);
    actor.send({ type: 'list.refresh' });
    pending.latest('reload').reject(new Error('Network Connection Failure'));
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual({ listed: 'finished' });
    expect(snapshot.context).toMatchObject({ items: ['c'], finished: true, error: 'Network Connection Failure' });
    expect(selectPhase(snapshot)).toBe('listed');
    expect(selectRefreshError(snapshot)).toBe('Network Connection Failure');
    actor.send({ type: 'list.refresh' });
    expect(selectRefreshError(actor.getSnapshot())).toBeNull();
  });

  it('a failed next page keeps the items; retry asks for the same page again', async () => {
    const { actor, pending } = await listed();
    actor.send({ type: 'list.loadMore' });
    pending.latest('loadMore').reject(new Error('Server Failure'));
    await flush();
    expect(selectMoreFailed(actor.getSnapshot())).toBe(true);
    expect(selectItems(actor.getSnapshot())).toEqual(['a', 'b']);
    expect(selectError(actor.getSnapshot())).toBe('Server Failure');
    expect(selectRefreshError(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'list.retry' });
    expect(pending.latest('loadMore').args).toEqual([{ page: 2, pageSize: PAGE_SIZE }]);
    pending.latest<Page<string>>('loadMore').resolve(short);
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ items: ['a', 'b', 'c'], page: 2, error: null });
  });

  it('a failed first page shows the error, no list; retry loads page 1 again', async () => {
    const m = manual();
    const actor = createActor(m.logic, { input: { pageSize: PAGE_SIZE } }).start();
    expect(selectPhase(actor.getSnapshot())).toBe('loading');
    expect(selectSettled(actor.getSnapshot())).toBe(false);
    m.pending.next('loadFirst').reject(new Error('Request Address Error'));
    await flush();
    expect(selectPhase(actor.getSnapshot())).toBe('failed');
    expect(selectError(actor.getSnapshot())).toBe('Request Address Error');
    actor.send({ type: 'list.retry' });
    expect(m.pending.latest('loadFirst').args).toEqual([{ page: 1, pageSize: PAGE_SIZE }]);
    m.pending.latest<Page<string>>('loadFirst').resolve(full);
    await flush();
    expect(selectSettled(actor.getSnapshot())).toBe(true);
    expect(selectPhase(actor.getSnapshot())).toBe('listed');
  });

  it('with keyOf, a row that moved over the page boundary shows once', async () => {
    const m = manual<{ id: number }>({ keyOf: (item) => item.id });
    const actor = createActor(m.logic, { input: { pageSize: 2 } }).start();
    m.pending.next<Page<{ id: number }>>('loadFirst').resolve({ items: [{ id: 9 }, { id: 8 }] });
    await flush();
    actor.send({ type: 'list.loadMore' });
    // A new row arrived at the top meanwhile, so page 2 starts with the last row of page 1.
    m.pending.latest<Page<{ id: number }>>('loadMore').resolve({ items: [{ id: 8 }, { id: 7 }] });
    await flush();
    expect(actor.getSnapshot().context.items).toEqual([{ id: 9 }, { id: 8 }, { id: 7 }]);
    expect(actor.getSnapshot().value).toEqual({ listed: 'ready' });
  });

  it('hands its query to every page request, unchanged', async () => {
    const pending = new PendingCalls();
    const logic = createPagedListMachine<string, { tagId: number }>().provide({
      actors: { loadPage: fromPromise<Page<string>, PageRequest<{ tagId: number }>>(({ input, self }) => pending.add(self.id, [input])) },
    });
    const actor = createActor(logic, { input: { pageSize: 2, query: { tagId: 12 } } }).start();
    expect(pending.latest('loadFirst').args).toEqual([{ page: 1, pageSize: 2, query: { tagId: 12 } }]);
    pending.latest<Page<string>>('loadFirst').resolve(full);
    await flush();
    actor.send({ type: 'list.loadMore' });
    expect(pending.latest('loadMore').args).toEqual([{ page: 2, pageSize: 2, query: { tagId: 12 } }]);
    actor.send({ type: 'list.refresh' });
    expect(pending.latest('reload').args).toEqual([{ page: 1, pageSize: 2, query: { tagId: 12 } }]);
  });

  it('takes a whole page size of at least 1', () => {
    const actor = createActor(manual().logic, { input: { pageSize: 0 } }).start();
    expect(actor.getSnapshot().context.pageSize).toBe(1);
    actor.stop();
    expect(createActor(manual().logic, { input: { pageSize: 10.7 } }).getSnapshot().context.pageSize).toBe(10);
  });
});

describe('paged list helpers', () => {
  it('isLastPage: fewer items than the page size', () => {
    expect(isLastPage({ items: [1, 2] }, 2)).toBe(false);
    expect(isLastPage({ items: [1] }, 2)).toBe(true);
    expect(isLastPage({ items: [] }, 2)).toBe(true);
  });

  it('appendPage keeps order and, with keyOf, drops rows listed already', () => {
    expect(appendPage([1, 2], [2, 3])).toEqual([1, 2, 2, 3]);
    expect(appendPage([1, 2], [2, 3], (n) => n)).toEqual([1, 2, 3]);
    expect(appendPage([], [], (n) => n)).toEqual([]);
  });

  it('errorText: the error\'s message, a string as it is, else a readable default', () => {
    expect(errorText(new Error('Server Failure'))).toBe('Server Failure');
    expect(errorText('offline')).toBe('offline');
    expect(errorText(new Error(''))).toBe(TEXT_LOAD_FAILED);
    expect(errorText(undefined)).toBe(TEXT_LOAD_FAILED);
    expect(errorText({ code: 500 })).toBe(TEXT_LOAD_FAILED);
  });
});
