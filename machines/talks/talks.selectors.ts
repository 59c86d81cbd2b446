/** Talks snapshot → what the talk screen shows before its talk runs. */
import type { SnapshotFrom } from 'xstate';
import type { TalksMachine } from './talks.machine';

/** The code of `peer`'s chat could not be loaded: the screen says so and offers Retry (the talks try again on their own once the IM is back). */
export const selectTalkNotLoaded = (talks: SnapshotFrom<TalksMachine> | undefined, peer: string): boolean =>
  (talks?.matches('notLoaded') ?? false) && talks?.context.peer === peer;
