/** The wishlist composed with its one request (SPEC §7 setAnchorWishlist); the editor composes it once per mount. */
import { fromPromise } from 'xstate';
import { wishlistMachine } from './wishlist.machine';
import type { Wish } from './wishlist.machine';

export interface WishlistPort {
  /** Saves the whole wishlist (setAnchorWishlist). */
  save(wishes: Wish[]): Promise<void>;
}

export function composeWishlist(port: WishlistPort) {
  return wishlistMachine.provide({
    actors: { save: fromPromise<void, Wish[]>(({ input }) => port.save(input)) },
  });
}
