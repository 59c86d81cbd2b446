/** The presence socket (SPEC §4 Presence): open, send a status code, close. */

import type { PresenceCode } from '../codes/presence.codes';
// Declared in machines/codes/presence.codes.ts; re-exported for the port's adapters and tests.
export { PresenceCode } from '../codes/presence.codes';

export type PresenceEvent = { type: 'closed' };

export interface PresencePort {
  /** Opens the socket for the signed-in user; rejects when it cannot. */
  open(): Promise<void>;
  /** Resolves when the server acknowledged the code; the machine bounds the wait (presence timeout 5 s). */
  send(code: PresenceCode): Promise<void>;
  close(): void;
  subscribe(listener: (event: PresenceEvent) => void): () => void;
}
