/** Talk snapshot → the child that holds the peer's name, block state, translations and secrets, and whether the day's chat quota is reached. */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { TalkExtrasMachine } from './talk-extras.machine';
import type { TalkMachine } from './talk.machine';
import { quotaReached } from './chat-quota';

export type TalkExtrasRef = ActorRefFrom<TalkExtrasMachine>;

export const selectExtras = (talk: SnapshotFrom<TalkMachine> | undefined): TalkExtrasRef | undefined => talk?.children.extras;

/** SPEC §4 non-paid user quota: today's limit of people is reached and the peer is not one of them (a text to them is refused). */
export const selectChatLimitReached = (talk: SnapshotFrom<TalkMachine> | undefined): boolean =>
  talk ? quotaReached(talk.context.quota, talk.context.peer) : false;
