/** Hosting a live room composed with its ports: the live API, the room's media and the chat room. */
import { fromCallback, fromPromise } from 'xstate';
import { allSettled, composeLiveChat } from '../live-chat/live-chat.actors';
import type { LivePorts } from '../live-chat/live-chat.actors';
import { liveHeartbeatMachine } from './live-heartbeat.machine';
import { liveHostingMachine } from './live-hosting.machine';
import type { LiveHostingEvent } from './live-hosting.machine';
import { liveMediaFact } from '../ports/facts';

export function composeLiveHosting({ api, media, chatroom }: Omit<LivePorts, 'gifts'>) {
  return liveHostingMachine.provide({
    actors: {
      // async: a port that throws at once still ends as the actor's error.
      checkPermission: fromPromise(async () => api.checkPermission()),
      begin: fromPromise(async ({ input }) => api.begin(input)),
      publish: fromPromise(async ({ input }) => media.publish(input.channelId, input.account)),
      leaveChannel: fromPromise(async () => media.leave()),
      setPrivateCall: fromPromise(async ({ input }) => {
        await api.setPrivateCall(input);
        return input;
      }),
      // Media and chat room first (each whatever the other does), then the server: its stats.
      finish: fromPromise(async ({ input }) => {
        await allSettled(() => media.leave(), () => (input.roomId ? chatroom.leave(input.roomId) : Promise.resolve()));
        return api.end();
      }),
      media: fromCallback<LiveHostingEvent>(({ sendBack }) => media.subscribe((event) => sendBack(liveMediaFact(event)))),
      chat: composeLiveChat(chatroom),
      heartbeat: liveHeartbeatMachine.provide({ actors: { beat: fromPromise(async ({ input }) => api.heartbeat(input)) } }),
    },
  });
}
