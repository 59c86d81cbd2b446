/**
 * The call's code tables (SPEC §3 Call enums, §4 Call status, hangup reasons, peer notification
 * kinds, App call state), declared once for the machines, the API contract and the reference server.
 */

/** SPEC §4 Call status: 0 init, 1 calling, 2 cancel, 3 in progress, 4 hung up, 5 timeout. */
export const CallStatus = { init: 0, calling: 1, cancel: 2, inProgress: 3, hungUp: 4, timeout: 5 } as const;
export type CallStatus = (typeof CallStatus)[keyof typeof CallStatus];

/** SPEC §4 hangup reasons: 1 local, 2 remote, 6 weak network. */
export const HangupReason = { local: 1, remote: 2, weakNetwork: 6 } as const;
export type HangupReason = (typeof HangupReason)[keyof typeof HangupReason];

/** The hangup reason the server is told: remote and weak network as they are, anything else local. */
export const reportedHangupReason = (reason: number): HangupReason =>
  reason === HangupReason.remote || reason === HangupReason.weakNetwork ? reason : HangupReason.local;

/** SPEC §3 Call enums, signalling action: what a call signal asks (the ring's action is the call's type). */
export const SignalAction = {
  videoCall: 0,
  cancel: 1,
  accept: 2,
  reject: 3,
  hangup: 4,
  audioCall: 10,
} as const;
export type SignalAction = (typeof SignalAction)[keyof typeof SignalAction];

/** The callType of a call: the signalling action that rang it (SPEC §3: video call 0, audio call 10). */
export const CallType = { video: SignalAction.videoCall, audio: SignalAction.audioCall } as const;
export type CallType = (typeof CallType)[keyof typeof CallType];

export const isAudioCall = (callType: number): boolean => callType === CallType.audio;
/** The call type the server is asked for: audio when it says audio, video otherwise. */
export const callTypeOf = (callType: number): CallType => (isAudioCall(callType) ? CallType.audio : CallType.video);

/** SPEC §3 Call enums, call state: idle 0, prepared 1, calling 2, connecting 3, connected 4, failed 10. */
export const CallState = { idle: 0, prepared: 1, calling: 2, connecting: 3, connected: 4, failed: 10 } as const;
export type CallState = (typeof CallState)[keyof typeof CallState];

/** SPEC §4 Peer notification kinds: 0 online, 1 reject, 2 cancel, 3 hang up, 4 connected. */
export const PeerNotice = { online: 0, reject: 1, cancel: 2, hangUp: 3, connected: 4 } as const;
export type PeerNotice = (typeof PeerNotice)[keyof typeof PeerNotice];

/** SPEC §4 App call state (drives the host overlays): calling, callConnecting, connected, or empty. */
export const AppCallState = { calling: 'calling', callConnecting: 'callConnecting', connected: 'connected', empty: 'empty' } as const;
export type AppCallState = (typeof AppCallState)[keyof typeof AppCallState];
