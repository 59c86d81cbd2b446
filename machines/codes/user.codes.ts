/** The people's code tables (SPEC §3 Current user, User profile, Chat session, Home tab), declared once. */

/** SPEC §3 userType: 2 is a host (anchor), 1 a normal user. */
export const UserType = { user: 1, host: 2 } as const;
export type UserType = (typeof UserType)[keyof typeof UserType];

/** Whether a userType is a host's; anything but 2 is a non-host. */
export const isHostType = (userType: number | undefined): boolean => userType === UserType.host;

/** SPEC §3 picList mediaType: 1 picture, 2 video. */
export const MediaType = { picture: 1, video: 2 } as const;
export type MediaType = (typeof MediaType)[keyof typeof MediaType];

/**
 * SPEC §3 Chat session / User profile online status (`onlineGroupStatus`): 1 online, 2 busy
 * (in a call), 3 offline, the default. The reference server maps the presence codes of SPEC §4
 * onto it: foreground and call end are online, calling is busy, offline, background and never
 * connected are offline.
 */
export const OnlineStatus = { online: 1, busy: 2, offline: 3 } as const;
export type OnlineStatus = (typeof OnlineStatus)[keyof typeof OnlineStatus];

/**
 * `onlineStatus` of the people lists (the home list's getIndexListOption, SPEC §3 Home tab):
 * 0 everyone, online first; 1 online or busy (online first); 2 busy only; 3 offline only.
 */
export const OnlineFilter = { all: 0, onlineOrBusy: 1, busy: 2, offline: 3 } as const;
export type OnlineFilter = (typeof OnlineFilter)[keyof typeof OnlineFilter];
