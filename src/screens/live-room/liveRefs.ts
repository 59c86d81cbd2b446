/**
 * The session's live rooms as the live screens find them (the session's selectors: its `live`
 * child, the per-use `liveHosting` or `liveViewing` inside it, the last live's summary for
 * /liveEnds), whether a live runs, and the room asked for by the address.
 */
import type { SnapshotFrom } from 'xstate';
import type { LiveRoomsMachine } from '../../../machines/live-rooms/live-rooms.machine';

export {
  selectLastLive, selectLiveHosting, selectLiveRooms, selectLiveViewing,
} from '../../../machines/session/session.selectors';
export type { LiveRoomsRef } from '../../../machines/session/session.selectors';

type LiveRoomsSnapshot = SnapshotFrom<LiveRoomsMachine>;

/** No live runs now: a watch or a begin would be taken. */
export const selectLiveIdle = (live: LiveRoomsSnapshot | undefined): boolean => live?.matches('idle') ?? false;

/** /liveRoom?anchorId=<the host's user id> (home's live list): a positive whole number, or null. */
export function anchorIdOf(search: unknown): number | null {
  const raw = (search && typeof search === 'object' ? (search as { anchorId?: unknown }).anchorId : undefined);
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
