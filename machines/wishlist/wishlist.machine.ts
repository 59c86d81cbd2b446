/**
 * The host's wishlist being edited and saved (SPEC §3 Live info wishlist; §7 setAnchorWishlist;
 * §8 'set wishlist is failed!'): up to `max` wishes, each a different gift wanted 1…`maxCount`
 * times, the rows as the host edits them, and their save.
 *
 *   editing ─wishlist.save (valid)─▶ saving ─done─▶ saved
 *                                           ─error─▶ failed
 *   editing | saved | failed ─wish.add | wish.remove | wish.setGift | wish.setCount─▶ editing
 *   saving: edits change the rows; the answer is for the rows sent
 *
 * Saving is a state: a second save while one goes has no transition and is dropped. An edit after
 * a save (or a failure) forgets what was said of it: the rows on screen are not saved yet.
 */
import { assertEvent, assign, fromPromise } from 'xstate';
import { setup } from '../setup';

/** One wish as the server takes it. */
export interface Wish {
  giftId: number;
  giftNum: number;
}

/** One row of the editor: the gift (null until chosen) and the count as typed. */
export interface WishRow {
  key: number;
  giftId: number | null;
  count: string;
}

export interface WishlistInput {
  /** The saved wishlist, as loaded. */
  wishes: Wish[];
  /** SPEC §3: wishes at most. */
  max: number;
  /** SPEC §3: a gift wanted at most so many times. */
  maxCount: number;
}

export interface WishlistContext {
  rows: WishRow[];
  /** The key of the next row added. */
  next: number;
  max: number;
  maxCount: number;
}

export type WishlistEvent =
  | { type: 'wish.add' }
  | { type: 'wish.remove'; key: number }
  | { type: 'wish.setGift'; key: number; giftId: number | null }
  | { type: 'wish.setCount'; key: number; count: string }
  | { type: 'wishlist.save' };

/** The count typed, when it is a whole number within 1…maxCount; else null. */
export function countOf(text: string, maxCount: number): number | null {
  const n = Number(text);
  return text.trim() !== '' && Number.isInteger(n) && n >= 1 && n <= maxCount ? n : null;
}

/** Every row has a gift and a count within bounds, and no gift is wished twice. */
export function rowsValid(rows: readonly WishRow[], maxCount: number): boolean {
  const ids = rows.map((r) => r.giftId);
  return rows.every((r) => r.giftId !== null && countOf(r.count, maxCount) !== null) && new Set(ids).size === ids.length;
}

/** The wishes of valid rows, as the server takes them. */
export const wishesOf = (rows: readonly WishRow[], maxCount: number): Wish[] =>
  rows.map((r) => ({ giftId: r.giftId!, giftNum: countOf(r.count, maxCount)! }));

const edits = {
  'wish.add': { guard: 'roomForMore', target: '.editing', actions: 'add' },
  'wish.remove': { target: '.editing', actions: 'remove' },
  'wish.setGift': { target: '.editing', actions: 'setGift' },
  'wish.setCount': { target: '.editing', actions: 'setCount' },
} as const;

export const wishlistMachine = setup({
  types: {
    input: {} as WishlistInput,
    context: {} as WishlistContext,
    events: {} as WishlistEvent,
  },
  actors: {
    save: fromPromise<void, Wish[]>(() => Promise.reject(new Error('save not provided'))),
  },
  guards: {
    valid: ({ context }) => rowsValid(context.rows, context.maxCount),
    roomForMore: ({ context }) => context.rows.length < context.max,
  },
  actions: {
    add: assign(({ context }) => ({ rows: [...context.rows, { key: context.next, giftId: null, count: '1' }], next: context.next + 1 })),
    remove: assign({ rows: ({ context, event }) => { assertEvent(event, 'wish.remove'); return context.rows.filter((r) => r.key !== event.key); } }),
    setGift: assign({
      rows: ({ context, event }) => { assertEvent(event, 'wish.setGift'); return context.rows.map((r) => (r.key === event.key ? { ...r, giftId: event.giftId } : r)); },
    }),
    setCount: assign({
      rows: ({ context, event }) => { assertEvent(event, 'wish.setCount'); return context.rows.map((r) => (r.key === event.key ? { ...r, count: event.count } : r)); },
    }),
  },
}).createMachine({
  id: 'wishlist',
  context: ({ input }) => ({
    rows: input.wishes.map((w, key) => ({ key, giftId: w.giftId, count: String(w.giftNum) })),
    next: input.wishes.length,
    max: input.max,
    maxCount: input.maxCount,
  }),
  initial: 'editing',
  // An edit in any state but saving leaves what was said of the last save (saving keeps its own).
  on: edits,
  states: {
    editing: {
      on: { 'wishlist.save': { guard: 'valid', target: 'saving' } },
    },
    saving: {
      on: {
        'wish.add': { guard: 'roomForMore', actions: 'add' },
        'wish.remove': { actions: 'remove' },
        'wish.setGift': { actions: 'setGift' },
        'wish.setCount': { actions: 'setCount' },
      },
      invoke: {
        id: 'save', src: 'save', input: ({ context }) => wishesOf(context.rows, context.maxCount), onDone: 'saved', onError: 'failed',
      },
    },
    saved: {
      on: { 'wishlist.save': { guard: 'valid', target: 'saving' } },
    },
    failed: {
      on: { 'wishlist.save': { guard: 'valid', target: 'saving' } },
    },
  },
});

export type WishlistMachine = typeof wishlistMachine;
