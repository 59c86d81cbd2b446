/** Talk snapshot → the child that holds the peer's name, block state, translations and secrets. */
import type { ActorRefFrom, AnyMachineSnapshot } from 'xstate';
import type { TalkExtrasMachine } from './talk-extras.machine';

export type TalkExtrasRef = ActorRefFrom<TalkExtrasMachine>;

export const selectExtras = (talk: AnyMachineSnapshot | undefined): TalkExtrasRef | undefined =>
  talk?.children.extras as TalkExtrasRef | undefined;
