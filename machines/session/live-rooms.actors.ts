/**
 * The session's live rooms composed with their ports. What each live asks for (`report`)
 * comes up to the live rooms as events, so each machine stays testable on its own.
 */
import { sendParent } from 'xstate';
import type { LivePorts } from '../live-chat/live-chat.actors';
import { composeLiveHosting } from '../live-hosting/live-hosting.actors';
import type { LiveHostingEmitted } from '../live-hosting/live-hosting.machine';
import { composeLiveViewing } from '../live-viewing/live-viewing.actors';
import type { LiveViewingEmitted } from '../live-viewing/live-viewing.machine';
import type { ChatroomPort } from '../ports/chatroom.port';
import { LiveApiError } from '../ports/live.port';
import type { LiveApiPort, LiveMediaPort } from '../ports/live.port';
import { liveRoomsMachine } from './live-rooms.machine';

export function composeLiveRooms(ports: LivePorts) {
  return liveRoomsMachine.provide({
    actors: {
      liveHosting: composeLiveHosting(ports).provide({ actions: { report: sendParent((_, params: LiveHostingEmitted) => params) } }),
      liveViewing: composeLiveViewing(ports).provide({ actions: { report: sendParent((_, params: LiveViewingEmitted) => params) } }),
    },
  });
}

/** Said by every live call when the owner of the session gave no live ports. */
export const TEXT_LIVE_UNAVAILABLE = 'Live rooms are not available.';

const unavailable = () => Promise.reject(new LiveApiError(0, TEXT_LIVE_UNAVAILABLE));

/** Live ports that refuse everything (going live and joining fail with TEXT_LIVE_UNAVAILABLE). */
export const unavailableLive: { api: LiveApiPort; media: LiveMediaPort; chatroom: ChatroomPort } = {
  api: {
    checkPermission: unavailable, begin: unavailable, heartbeat: unavailable, setPrivateCall: unavailable,
    end: unavailable, join: unavailable, leave: () => Promise.resolve(),
  },
  media: { publish: unavailable, watch: unavailable, leave: () => Promise.resolve(), subscribe: () => () => {} },
  chatroom: {
    enter: unavailable, leave: () => Promise.resolve(), send: unavailable, members: unavailable, history: unavailable,
    setGagged: unavailable, subscribe: () => () => {},
  },
};
