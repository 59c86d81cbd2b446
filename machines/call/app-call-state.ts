/**
 * SPEC §4 App call state, from a call snapshot (drives the host overlays and a live host's
 * private call). On its own: the session reads it from the call's snapshots without loading
 * the call machine or its types, which come with the first call.
 */
import type { AppCallState } from './call.types';

export function appCallStateOf(snapshot: { matches(value: unknown): boolean; status: string }): AppCallState {
  if (snapshot.status !== 'active') return 'empty';
  if (snapshot.matches({ incoming: 'ringing' }) || snapshot.matches({ outgoing: 'ringing' })) return 'calling';
  if (snapshot.matches('connecting') || snapshot.matches({ incoming: 'accepting' })) return 'callConnecting';
  if (snapshot.matches('connected')) return 'connected';
  return 'empty';
}
