/**
 * Starting a call from a profile or a list (SPEC §2 /userProfile call button; the call flow
 * itself belongs to the call machine): the session actor is asked with `call.start`, the
 * peer named by IM account, user id and nickname, a video or an audio call (SPEC §3 signalling
 * action 0 or 10) and whether the device is online (SPEC §5: no call starts when offline).
 */
import type { SessionRef } from '../../../machines/session/session.selectors';

export interface CallPeer {
  account: string;
  userId: number;
  nickname: string;
}

/** SPEC §3 signalling actions 0 and 10: a video call, an audio call. */
export const VIDEO_CALL = 0;
export const AUDIO_CALL = 10;
export type CallType = typeof VIDEO_CALL | typeof AUDIO_CALL;

export interface CallStart {
  type: 'call.start';
  peer: CallPeer;
  callType: CallType;
  online: boolean;
}

export const callStartOf = (peer: CallPeer, online: boolean, callType: CallType = VIDEO_CALL): CallStart =>
  ({ type: 'call.start', peer, callType, online });

/** Asks the session to call `peer` (a video call unless said); false when there is no session to ask. */
export function startCall(session: SessionRef | undefined, peer: CallPeer, callType: CallType = VIDEO_CALL): boolean {
  if (!session) return false;
  // The call work adds `call.start` to the session's events; until it lands the session's type does not list it.
  (session as unknown as { send(event: CallStart): void }).send(callStartOf(peer, navigator.onLine, callType));
  return true;
}
