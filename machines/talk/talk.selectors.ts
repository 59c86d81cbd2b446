/** Talk snapshot → the child that holds the peer's name, block state, translations and secrets. */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { TalkExtrasMachine } from './talk-extras.machine';
import type { TalkMachine } from './talk.machine';

export type TalkExtrasRef = ActorRefFrom<TalkExtrasMachine>;

export const selectExtras = (talk: SnapshotFrom<TalkMachine> | undefined): TalkExtrasRef | undefined => talk?.children.extras;
