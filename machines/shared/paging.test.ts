/** The shared paging protocol's rules (SPEC §4 Home list paging) and the transition it builds. */
import { describe, expect, it } from 'vitest';
import { appendPage, isLastPage, pagingOf } from './paging';

describe('[§4 paging] the shared paging protocol', () => {
  it('a page shorter than the page size is the last; a full one is not', () => {
    expect(isLastPage({ items: [1, 2] }, 3)).toBe(true);
    expect(isLastPage({ items: [1, 2, 3] }, 3)).toBe(false);
    expect(isLastPage([1], 2)).toBe(true);
    expect(isLastPage([], 1)).toBe(true);
  });

  it('an appended page drops the items listed already (a row that moved over a page boundary shows once)', () => {
    expect(appendPage([{ id: 1 }, { id: 2 }], [{ id: 2 }, { id: 3 }], (x) => x.id)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(appendPage([1, 2], [2, 3])).toEqual([1, 2, 2, 3]);
  });

  it('a page answered goes to `last` when it is the last page, else to `more`, the page applied either way', () => {
    const [last, more] = pagingOf<number[]>().answeredThen({ last: 'finished', more: 'ready' }, 'append', ['markFinished'], ['markMore']);
    const event = { output: [7] };
    expect(last!.guard?.type).toBe('lastPage');
    expect(last!.guard?.params({ event })).toEqual([7]);
    expect(last!.target).toBe('finished');
    expect(last!.actions.map((a) => (typeof a === 'string' ? a : a.type))).toEqual(['append', 'markFinished']);
    expect(more!.target).toBe('ready');
    expect(more!.actions.map((a) => (typeof a === 'string' ? a : a.type))).toEqual(['append', 'markMore']);
    const [applied] = more!.actions;
    expect(typeof applied === 'string' ? null : applied!.params({ event })).toEqual([7]);
  });

  it('without actions of its own, only the page is applied', () => {
    const [last, more] = pagingOf<number[]>().answered({ last: 'complete', more: 'idle' }, 'addHistory');
    expect([last!.target, more!.target]).toEqual(['complete', 'idle']);
    expect(last!.actions.map((a) => a.type)).toEqual(['addHistory']);
  });
});
