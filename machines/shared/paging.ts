/**
 * The paging protocol every paged list shares (SPEC §4 Home list paging: pull resets to page 1,
 * scroll asks for the next page, a page shorter than the page size is the last; §9 paging
 * sizes): the home tabs (machines/home-list), the paged lists of the screens (machines/paged-list)
 * and the talk's history (machines/talk), and the lists to come (wallet flows, withdrawal
 * records, circle posts, rank and invite lists).
 *
 * A paged machine declares a `lastPage` guard over the page (`isLastPage`) and actions that take
 * the page as params; `pagingOf<Page>().answered` builds the one transition every page load ends with:
 *
 *   a page loaded ─shorter than the page size─▶ `last` (the page applied, then `onLast`)
 *                 ─else─▶ `more` (the page applied, then `onMore`)
 */

/** A request for one page. */
export interface PageRequest<Q = undefined> {
  /** 1-based. */
  page: number;
  pageSize: number;
  /** The list's `query` from its input. */
  query?: Q;
}

export interface Page<T> {
  items: T[];
}

/** A page shorter than the page size is the last one (SPEC §4). */
export const isLastPage = (page: Page<unknown> | readonly unknown[], pageSize: number): boolean =>
  (Array.isArray(page) ? page : (page as Page<unknown>).items).length < pageSize;

/** `page` after `items`, without the ones `keyOf` says are listed already. */
export function appendPage<T>(items: readonly T[], page: readonly T[], keyOf?: (item: T) => unknown): T[] {
  if (!keyOf) return [...items, ...page];
  const seen = new Set(items.map(keyOf));
  return [...items, ...page.filter((item) => !seen.has(keyOf(item)))];
}

/** The page a page load answered, as the params of the `lastPage` guard and of the action that applies it. */
const thePage = <O>({ event }: { event: { output: O } }): O => event.output;

/**
 * The transitions of a machine whose page loads answer `O` (a page, or the items themselves).
 * `answered` is the `onDone` of a page load: the last page goes to `to.last`, another to
 * `to.more`, `apply` (an action taking the page) running either way; `answeredThen` runs
 * `onLast` or `onMore` (actions without params) after it.
 */
export function pagingOf<O>() {
  const applied = <A extends string>(apply: A) => ({ type: apply, params: thePage<O> });
  return {
    answered<const A extends string>(to: { last: string; more: string }, apply: A) {
      return [
        { guard: { type: 'lastPage' as const, params: thePage<O> }, target: to.last, actions: [applied(apply)] },
        { target: to.more, actions: [applied(apply)] },
      ];
    },
    answeredThen<const A extends string, const B extends string>(
      to: { last: string; more: string },
      apply: A,
      onLast: readonly B[],
      onMore: readonly B[] = [],
    ) {
      return [
        { guard: { type: 'lastPage' as const, params: thePage<O> }, target: to.last, actions: [applied(apply), ...onLast] },
        { target: to.more, actions: [applied(apply), ...onMore] },
      ];
    },
  };
}
