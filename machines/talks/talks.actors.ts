/** The talk screen's chats composed with the loader of the talk's code (from the session's composition). */
import { sendParent } from 'xstate';
import type { PromiseActorLogic } from 'xstate';
import type { TalkMachine } from '../talk/talk.machine';
import { talksMachine } from './talks.machine';
import type { TalksOutput } from './talks.machine';

/** What the talks ask for comes up to their parent as its events. */
export function composeTalks(loaders: { loadTalk: PromiseActorLogic<TalkMachine> }) {
  return talksMachine.provide({
    actors: { loadTalk: loaders.loadTalk },
    actions: { output: sendParent((_, params: TalksOutput) => params) },
  });
}
