/**
 * The live room chat composed with the chat-room port (SPEC §9: history 5, audience 500), and
 * what every live machine's composition shares.
 */
import { fromCallback, fromPromise } from 'xstate';
import type { ChatroomPort } from '../ports/chatroom.port';
import type { GiftApiPort } from '../ports/gift.port';
import type { ClockPort } from '../ports/clock.port';
import type { LiveApiPort, LiveMediaPort } from '../ports/live.port';
import { chatEventOf, liveChatMachine } from './live-chat.machine';
import type { LiveChatEvent } from './live-chat.machine';
import { AUDIENCE_LIMIT, HISTORY_LIMIT } from './live-chat.types';

/** What the live machines need from the world (SPEC §7 Calls and live, chat-room calls, gifts). */
export interface LivePorts {
  api: LiveApiPort;
  /** The room's media; one room at a time (publish or watch, then leave). */
  media: LiveMediaPort;
  chatroom: ChatroomPort;
  gifts: GiftApiPort;
  /** What a gift's balance is known at reads the time from; tests pass a simulated clock. Without it, the wall clock. */
  clock?: Pick<ClockPort, 'now'>;
}

/** Runs every step and waits for all, whatever each does (leaving is best effort everywhere). */
export async function allSettled(...steps: (() => Promise<unknown>)[]): Promise<void> {
  await Promise.all(steps.map((step) => Promise.resolve().then(step).catch(() => undefined)));
}

export function composeLiveChat(chatroom: ChatroomPort) {
  return liveChatMachine.provide({
    actors: {
      // async: a port that throws at once still ends as the actor's error.
      enter: fromPromise(async ({ input }) => chatroom.enter(input.roomId, input.entry)),
      load: fromPromise(async ({ input }) => {
        const [history, members] = await Promise.all([
          chatroom.history(input.roomId, HISTORY_LIMIT),
          chatroom.members(input.roomId, AUDIENCE_LIMIT),
        ]);
        return { history, members };
      }),
      send: fromPromise(async ({ input }) => chatroom.send(input.roomId, { text: input.text, attach: input.attach })),
      setGagged: fromPromise(async ({ input }) => {
        await chatroom.setGagged(input.roomId, input.account, input.gagged);
        return { account: input.account, gagged: input.gagged };
      }),
      events: fromCallback<LiveChatEvent, { roomId: string }>(({ input, sendBack }) =>
        chatroom.subscribe(input.roomId, (event) => sendBack(chatEventOf(event)))),
    },
  });
}
