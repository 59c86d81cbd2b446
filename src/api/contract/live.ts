/**
 * The live lists (SPEC §2 / liveList and the Home tab 'Live'; §3 Live info; §7 Calls and live:
 * /api/agora/live/queryLiveList and queryMyFollowLive; §9 follow live list 100).
 *
 * They read the `live_rooms` table (migration 4). Nothing fills it yet: going live
 * (beginLiveRoom / endLiveRoom, a later piece of work) adds and ends rooms, so until then both
 * lists are empty. The rest of the live endpoints of SPEC §7 are not declared here yet.
 */
import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint';
import { Page, PersonSummary, currentPage, pageSize } from './people';

/** SPEC §9: the follow live list is paged by 100; the live list takes no larger page. */
export const LIVE_PAGE_SIZE = 100;

/** A live room on the list: its host (as a person card) and the room's SPEC §3 Live info fields. */
export const LiveRoomItem = z.extend(PersonSummary, {
  agoraChannelId: z.string(),
  yxRoomId: z.string(),
  title: z.string(),
  /** Members who joined so far. */
  joinNum: z.number(),
  privateCallOpen: z.boolean(),
  /** When the room went live, milliseconds since the epoch. */
  startTime: z.number(),
});
export type LiveRoomItem = z.output<typeof LiveRoomItem>;

const LivePageRequest = z.object({ currentPage, pageSize: pageSize(LIVE_PAGE_SIZE) });

/** Rooms that are live now, newest first (then by room id), the caller's own and blocked hosts' left out. */
export const queryLiveList = defineEndpoint({
  path: '/api/agora/live/queryLiveList',
  method: 'POST',
  auth: 'session',
  request: LivePageRequest,
  response: Page(LiveRoomItem),
});

/** The same, only rooms of hosts the caller follows. */
export const queryMyFollowLive = defineEndpoint({
  path: '/api/agora/live/queryMyFollowLive',
  method: 'POST',
  auth: 'session',
  request: LivePageRequest,
  response: Page(LiveRoomItem),
});
