/** Wishlist snapshot → what the editor on /liveSetting shows. */
import type { SnapshotFrom } from 'xstate';
import type { WishlistMachine } from './wishlist.machine';
import { rowsValid } from './wishlist.machine';

type WishlistSnapshot = SnapshotFrom<WishlistMachine>;

export type WishlistPhase = 'idle' | 'saving' | 'saved' | 'failed';
/** What the form says of its save (`data-state`): idle while editing. */
export const selectWishlistPhase = (s: WishlistSnapshot): WishlistPhase => (s.matches('editing') ? 'idle' : s.value as WishlistPhase);
export const selectRows = (s: WishlistSnapshot) => s.context.rows;
export const selectRowsValid = (s: WishlistSnapshot): boolean => rowsValid(s.context.rows, s.context.maxCount);
export const selectRoomForMore = (s: WishlistSnapshot): boolean => s.context.rows.length < s.context.max;
