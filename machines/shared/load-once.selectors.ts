/** Load-once snapshot → what a screen shows: the answer, whether it loads, why it failed. */
import type { SnapshotFrom } from 'xstate';
import type { LoadOnceMachine } from './load-once.machine';

type LoadOnceSnapshot = SnapshotFrom<LoadOnceMachine>;

/** The last answer (kept while a reload runs). */
export const selectLoaded = (s: LoadOnceSnapshot): unknown => s.context.data;
/** Why the last load failed, while it stands failed (a reload clears it from view). */
export const selectLoadError = (s: LoadOnceSnapshot): string | null => (s.matches('failed') ? s.context.error : null);
export const selectLoading = (s: LoadOnceSnapshot): boolean => s.matches('loading') || s.matches('starting');
