/** Words and marks for people shared by the home, profile and follow lists. */

/** SPEC §3 onlineGroupStatus (1 online, 2 busy, 3 offline) in words. */
export const STATUS_LABEL: Readonly<Record<1 | 2 | 3, string>> = { 1: 'Online', 2: 'Busy', 3: 'Offline' };
