/** SPEC §4 Presence codes, sent over the presence socket. */
export const PresenceCode = {
  offline: 2,
  calling: 10000,
  callEnd: 10001,
  foreground: 10002,
  background: 10003,
} as const;
export type PresenceCode = (typeof PresenceCode)[keyof typeof PresenceCode];
