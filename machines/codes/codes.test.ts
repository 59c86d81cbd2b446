import { describe, expect, it } from 'vitest';
import { CallState, CallType, HangupReason, PeerNotice, callTypeOf, isAudioCall, reportedHangupReason } from './call.codes';
import { UserType, isHostType } from './user.codes';

describe('[§3–4] code tables', () => {
  it('[§3 Call enums] call state: idle 0, prepared 1, calling 2, connecting 3, connected 4, failed 10', () => {
    expect(CallState).toEqual({ idle: 0, prepared: 1, calling: 2, connecting: 3, connected: 4, failed: 10 });
  });
  it('[§4] peer notification kinds: 0 online, 1 reject, 2 cancel, 3 hang up, 4 connected', () => {
    expect(PeerNotice).toEqual({ online: 0, reject: 1, cancel: 2, hangUp: 3, connected: 4 });
  });
  it('[§4 hangup reasons] the server hears remote and weak network as they are, anything else as local', () => {
    expect(reportedHangupReason(HangupReason.remote)).toBe(2);
    expect(reportedHangupReason(HangupReason.weakNetwork)).toBe(6);
    expect(reportedHangupReason(HangupReason.local)).toBe(1);
    expect(reportedHangupReason(5)).toBe(1);
  });
  it('[§3] call type 10 is audio; anything else is asked for as video', () => {
    expect(isAudioCall(CallType.audio)).toBe(true);
    expect(callTypeOf(10)).toBe(10);
    expect(callTypeOf(0)).toBe(0);
    expect(callTypeOf(3)).toBe(0);
  });
  it('[§3] userType 2 is a host, anything else is not', () => {
    expect(isHostType(UserType.host)).toBe(true);
    expect(isHostType(UserType.user)).toBe(false);
    expect(isHostType(undefined)).toBe(false);
  });
});
