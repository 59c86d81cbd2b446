/**
 * The session's live rooms as the live screens find them: the session's `live` child
 * (machines/session/live-rooms.machine.ts) and, inside it, the per-use `liveHosting` or
 * `liveViewing` child while one runs; the last live's summary for /liveEnds.
 */
import type { ActorRefFrom, AnyMachineSnapshot, SnapshotFrom } from 'xstate';
import type { LiveHostingRef } from '../../../machines/live-hosting/live-hosting.selectors';
import type { LiveViewingRef } from '../../../machines/live-viewing/live-viewing.selectors';
import type { LiveRoomsMachine } from '../../../machines/session/live-rooms.machine';

export type LiveRoomsRef = ActorRefFrom<LiveRoomsMachine>;
type LiveRoomsSnapshot = SnapshotFrom<LiveRoomsMachine>;

export const selectLiveRooms = (session: AnyMachineSnapshot | undefined): LiveRoomsRef | undefined =>
  session?.children.live as LiveRoomsRef | undefined;

export const selectLiveHosting = (live: LiveRoomsSnapshot | undefined): LiveHostingRef | undefined =>
  live?.children.liveHosting as LiveHostingRef | undefined;

export const selectLiveViewing = (live: LiveRoomsSnapshot | undefined): LiveViewingRef | undefined =>
  live?.children.liveViewing as LiveViewingRef | undefined;

/** No live runs now: a watch or a begin would be taken. */
export const selectLiveIdle = (live: LiveRoomsSnapshot | undefined): boolean => live?.matches('idle') ?? false;

export const selectLastLive = (live: LiveRoomsSnapshot | undefined) => live?.context.lastLive ?? null;

/** /liveRoom?anchorId=<the host's user id> (home's live list): a positive whole number, or null. */
export function anchorIdOf(search: unknown): number | null {
  const raw = (search && typeof search === 'object' ? (search as { anchorId?: unknown }).anchorId : undefined);
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
