/** The live room's code tables (SPEC §3 Live info, §4 Live state), declared once. */

/** SPEC §4 Viewing front status: 1 loading, 2 live, 3 live end, 5 calling. */
export const LiveFrontStatus = { loading: 1, live: 2, liveEnd: 3, calling: 5 } as const;
export type LiveFrontStatus = (typeof LiveFrontStatus)[keyof typeof LiveFrontStatus];

/** SPEC §3 Live info `whoBlock`: 0 none, 1 and 3 blocked by the service, 2 gagged by the host. */
export const WhoBlock = { none: 0, service: 1, host: 2, both: 3 } as const;
export type WhoBlock = (typeof WhoBlock)[keyof typeof WhoBlock];

/** SPEC §3 Live info `liveRoomState`: 0 live, 1 ended. */
export const LiveRoomState = { live: 0, ended: 1 } as const;
export type LiveRoomState = (typeof LiveRoomState)[keyof typeof LiveRoomState];

/** SPEC §3 Live info `userStatus` (the host's): 0 in the room, 1 in a private call. */
export const LiveHostStatus = { inRoom: 0, inCall: 1 } as const;
export type LiveHostStatus = (typeof LiveHostStatus)[keyof typeof LiveHostStatus];
