/** Presence snapshot → what the session's overlays show (SPEC §8 'Failed to connect WebSocket after retries'). */
import type { AnyMachineSnapshot } from 'xstate';

/** Presence gave up reconnecting (SPEC §9: 720 tries): the person is told, with a way to try again. */
export const selectPresenceGaveUp = (presence: AnyMachineSnapshot | undefined): boolean =>
  presence?.matches({ running: { link: 'gaveUp' } }) ?? false;
