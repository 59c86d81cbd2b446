/** The presence socket (SPEC §4 Presence): open, send a status code, close. */

export const PresenceCode = {
  offline: 2,
  calling: 10000,
  callEnd: 10001,
  foreground: 10002,
  background: 10003,
} as const;
export type PresenceCode = (typeof PresenceCode)[keyof typeof PresenceCode];

export type PresenceEvent = { type: 'closed' };

export interface PresencePort {
  /** Opens the socket for the signed-in user; rejects when it cannot. */
  open(): Promise<void>;
  /** Resolves when the server acknowledged the code; the machine bounds the wait (presence timeout 5 s). */
  send(code: PresenceCode): Promise<void>;
  close(): void;
  subscribe(listener: (event: PresenceEvent) => void): () => void;
}
