/**
 * Children whose code is loaded on use (the call and its chat, the talk, the host's and the
 * viewer's live: the per-use module), one way for all: the parent invokes the loader, then
 * spawns what it answered (`spawnLoaded`), and declares the child in `actors` by a placeholder
 * typed as the machine that will run (`loadedOnUse`), so `types.children` types the child in
 * the parent's snapshot and the screens' selectors need no cast.
 *
 *   loading (invoke the loader) ─done─▶ spawnLoaded(event.output, { id, input }) ─▶ running
 *                               ─error─▶ the parent says why (its own state)
 */
import { fromPromise } from 'xstate';
import type { AnyActorLogic } from 'xstate';

/**
 * Stands in `actors` for a child whose logic comes from a loader, typed as that logic. Nothing
 * starts it by name: the loaded logic is spawned instead; started by mistake, it fails at once.
 */
export function loadedOnUse<TLogic extends AnyActorLogic>(): TLogic {
  const placeholder: AnyActorLogic = fromPromise(() => Promise.reject(new Error('The loaded logic is spawned, not its placeholder')));
  return placeholder as TLogic;
}

interface SpawnOptions {
  id: string;
  /** Where others of the system find it (e.g. the session routes a system message to it). */
  systemId?: string;
  input?: unknown;
  /** The parent hears the child's snapshots (`xstate.snapshot.<id>`). */
  syncSnapshot?: boolean;
}

/**
 * Spawns the logic a loader answered, under the child's id. The logic is not one of the
 * parent's `actors` (its placeholder is), so XState's typing of `spawnChild` cannot check it:
 * this is the one place that hands it over unchecked.
 */
export function spawnLoaded(enqueue: { spawnChild: (logic: never, options: never) => void }, logic: AnyActorLogic, options: SpawnOptions): void {
  enqueue.spawnChild(logic as never, options as never);
}
