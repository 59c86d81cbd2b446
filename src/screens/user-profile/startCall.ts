/**
 * Starting a call from a profile or a list (SPEC §2 /userProfile call button; the call flow
 * itself belongs to the call machine): the session's calls are asked with `call.start`, the
 * peer named by IM account, user id and nickname, a video or an audio call (SPEC §3 signalling
 * action 0 or 10) and whether the device is online (SPEC §5: no call starts when offline).
 */
import type { SessionRef } from '../../../machines/session/session.selectors';
import { CallType } from '../../../machines/codes/call.codes';

export interface CallPeer {
  account: string;
  userId: number;
  nickname: string;
}


export interface CallStart {
  type: 'call.start';
  peer: CallPeer;
  callType: CallType;
  online: boolean;
}

export const callStartOf = (peer: CallPeer, online: boolean, callType: CallType = CallType.video): CallStart =>
  ({ type: 'call.start', peer, callType, online });

/** Asks the session's calls to call `peer` (a video call unless said); false when there is no session to ask. */
export function startCall(session: SessionRef | undefined, peer: CallPeer, callType: CallType = CallType.video): boolean {
  const calls = session?.getSnapshot().children.calls;
  if (!calls) return false;
  calls.send(callStartOf(peer, navigator.onLine, callType));
  return true;
}
