/**
 * Watching a live room composed with its ports: the live API, the room's media, the chat
 * room and the gift API (a gift is sent in the room's scene, `yxRoomId`).
 */
import { fromCallback, fromPromise } from 'xstate';
import { giftListMachine } from '../gift-list/gift-list.machine';
import { giftingClock, giftingMachine } from '../gifting/gifting.machine';
import { systemNow } from '../ports/clock.port';
import { allSettled, composeLiveChat } from '../live-chat/live-chat.actors';
import type { LivePorts } from '../live-chat/live-chat.actors';
import { liveViewingMachine } from './live-viewing.machine';
import type { LiveViewingEvent } from './live-viewing.machine';
import { liveMediaFact } from '../ports/facts';

export function composeLiveViewing({ api, media, chatroom, gifts, clock }: LivePorts) {
  return liveViewingMachine.provide({
    actors: {
      // async: a port that throws at once still ends as the actor's error.
      join: fromPromise(async ({ input }) => api.join(input)),
      watch: fromPromise(async ({ input }) => media.watch(input.channelId, input.account)),
      leave: fromPromise(({ input }) => allSettled(
        () => (input.roomId ? chatroom.leave(input.roomId) : Promise.resolve()),
        () => media.leave(),
        () => api.leave(input.hostUserId),
      )),
      media: fromCallback<LiveViewingEvent>(({ sendBack }) => media.subscribe((event) => sendBack(liveMediaFact(event)))),
      chat: composeLiveChat(chatroom),
      giftList: giftListMachine.provide({ actors: { load: fromPromise(async ({ input }) => gifts.list(input)) } }),
      gifting: giftingMachine.provide({
        ...giftingClock(clock ? () => clock.now() : systemNow),
        actors: {
          // The room's chat room is the gift's scene (the gifting machine knows it as its channel).
          send: fromPromise(async ({ input }) =>
            gifts.send({
              yxRoomId: input.channelId, toUserId: input.toUserId, giftId: input.giftId, giftNum: input.giftNum, idempotencyKey: input.idempotencyKey,
            })),
          refuseAsk: fromPromise(async () => Promise.reject(new Error('No gift asks in a live room'))),
        },
      }),
    },
  });
}
