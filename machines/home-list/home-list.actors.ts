/**
 * The home list's actors, written against the HomePort only. The Home screen and the tests
 * compose the machine through `composeHomeList`, so both run the same wiring.
 */
import { fromPromise } from 'xstate';
import { followedLiveMachine, homeListMachine } from './home-list.machine';
import type { MatchInput, StatusLookupInput } from './home-list.machine';
import { OnlineFilter, STATUS_BATCH } from './home-list.port';
import type { HomeItem, HomePort, HostCard, ListQuery, OnlineStatus } from './home-list.port';
import { homeTabMachine } from './home-tab.machine';
import type { LoadPageInput } from './home-tab.machine';
import type { PageRequest, Page } from '../paged-list/paged-list.machine';

/** How many online hosts the match picks from. */
export const MATCH_POOL = 100;

/** `items` in groups of `size` (the last may be shorter). */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** SPEC §9 lookups in groups of 100, one after another (the server refuses larger ones). */
export async function lookupInBatches(
  port: Pick<HomePort, 'lookupStatuses'>, accounts: readonly string[],
): Promise<Record<string, OnlineStatus>> {
  const out: Record<string, OnlineStatus> = {};
  for (const batch of batches(accounts, STATUS_BATCH)) Object.assign(out, await port.lookupStatuses(batch));
  return out;
}

/** A host online now, picked at random; another than `previous` when there is another. */
export async function findMatch(port: Pick<HomePort, 'loadPage' | 'random'>, input: MatchInput): Promise<HostCard | null> {
  const query: ListQuery = { source: 'hosts', onlineStatus: OnlineFilter.onlineOrBusy, tagId: 0, countryIds: input.countryIds };
  const online = (await port.loadPage(query, 1, MATCH_POOL))
    .filter((item): item is HostCard => item.kind === 'host' && item.onlineGroupStatus === 1);
  const others = online.filter((host) => host.userId !== input.previous);
  const pool = others.length > 0 ? others : online;
  if (pool.length === 0) return null;
  return pool[Math.min(pool.length - 1, Math.floor(port.random() * pool.length))]!;
}

export function composeHomeList(port: HomePort) {
  const loadPage = fromPromise<HomeItem[], LoadPageInput>(({ input }) => port.loadPage(input.query, input.page, input.pageSize));
  return homeListMachine.provide({
    actors: {
      loadSetup: fromPromise(() => port.loadSetup()),
      lookupStatuses: fromPromise<Readonly<Record<string, OnlineStatus>>, StatusLookupInput>(
        ({ input }) => lookupInBatches(port, input.accounts),
      ),
      findMatch: fromPromise<HostCard | null, MatchInput>(({ input }) => findMatch(port, input)),
      homeTab: homeTabMachine.provide({ actors: { loadPage } }),
      followedLive: followedLiveMachine.provide({
        actors: {
          loadPage: fromPromise<Page<HomeItem>, PageRequest<ListQuery>>(async ({ input }) => ({
            items: await port.loadPage(input.query ?? { source: 'followedLive' }, input.page, input.pageSize),
          })),
        },
      }),
    },
  });
}
