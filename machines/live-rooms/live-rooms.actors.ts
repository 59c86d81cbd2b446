/**
 * The session's live rooms composed with their ports. The lives themselves are composed in
 * per-use.actors.ts (what each asks for, `report`, comes up to the live rooms as events, so
 * each machine stays testable on its own), loaded when a live begins or is watched.
 */
import { fromPromise } from 'xstate';
import type { LivePorts } from '../live-chat/live-chat.actors';
import type { ChatroomPort } from '../ports/chatroom.port';
import { LiveApiError } from '../ports/live.port';
import type { LiveApiPort, LiveMediaPort } from '../ports/live.port';
import { liveRoomsMachine } from '../live-rooms/live-rooms.machine';
import type { PerUseLoader } from '../session/session.ports';

export function composeLiveRooms(ports: LivePorts, loadPerUse: PerUseLoader = () => import('../session/per-use.actors')) {
  return liveRoomsMachine.provide({
    actors: {
      loadHosting: fromPromise(async () => (await loadPerUse('live')).composeLives(ports).hosting),
      loadViewing: fromPromise(async () => (await loadPerUse('live')).composeLives(ports).viewing),
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
