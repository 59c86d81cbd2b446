/**
 * The parts of the local RTC adapter that need no browser: the SPEC §3 media error of each
 * getUserMedia failure, the camera constraints (SPEC §9 720p), the negotiation rule, what is
 * accepted from the relay, and the network quality scale. The adapter itself runs in
 * Chromium in tests/e2e/rtc.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { MediaErrorText } from '../../machines/ports/call.port';
import type { RtcEvent } from '../../machines/ports/call.port';
import { createRtcPort } from '../app/rtc';
import { mediaConstraints, mediaErrorKind, networkQuality, offersAhead, parseRelay } from './rtc.local';

/** A getUserMedia failure as browsers raise it (a DOMException, or a TypeError for bad constraints). */
const failure = (name: string) => Object.assign(new Error('getUserMedia failed'), { name });

describe('[§3] media errors of getUserMedia', () => {
  it.each([
    ['NotAllowedError', 'permissionDenied'],
    ['SecurityError', 'permissionDenied'],
    ['PermissionDeniedError', 'permissionDenied'],
    ['InvalidStateError', 'permissionDenied'],
    ['NotFoundError', 'deviceNotFound'],
    ['DevicesNotFoundError', 'deviceNotFound'],
    ['NotReadableError', 'deviceNotFound'],
    ['AbortError', 'deviceNotFound'],
    ['OverconstrainedError', 'constraintNotSatisfied'],
    ['ConstraintNotSatisfiedError', 'constraintNotSatisfied'],
    ['TypeError', 'optionInvalid'],
    ['NotSupportedError', 'notSupported'],
    ['SomethingNew', 'notSupported'],
  ] as const)('%s is %s', (name, kind) => {
    expect(mediaErrorKind(failure(name))).toBe(kind);
    expect(MediaErrorText[kind]).toBeTruthy();
  });

  it('a real TypeError and a value that is no error at all', () => {
    expect(mediaErrorKind(new TypeError('At least one of audio and video must be requested'))).toBe('optionInvalid');
    expect(mediaErrorKind('nope')).toBe('notSupported');
    expect(mediaErrorKind(null)).toBe('notSupported');
  });

  it('without a browser (no navigator.mediaDevices) prepare is notSupported, through the lazy stand-in of src/app/rtc.ts', async () => {
    const port = createRtcPort({ kind: 'local', rtcToken: async () => 'rtc_x', url: 'ws://127.0.0.1:9/realtime/rtc' });
    await port.leave(); // nothing loaded yet: nothing to leave
    expect(port.mediaAllowed()).toBe(false); // nothing loaded yet: it cannot tell
    const events: RtcEvent[] = [];
    port.subscribe((e) => events.push(e));
    const error = await port.prepare(true).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'MediaError', kind: 'notSupported' });
    // Said as an event too, for a call that rang without waiting for the camera; no Permissions API: not allowed ahead.
    expect(events).toEqual([{ type: 'mediaFailed', error }]);
    expect(port.mediaAllowed()).toBe(false);
    expect(port.media.local()).toBeNull();
    expect(port.media.remote()).toBeNull();
  });
});

describe('[§9] camera constraints', () => {
  it('asks for 1280×720 (ideal) and the microphone; an audio call asks for no camera', () => {
    expect(mediaConstraints(true)).toMatchObject({
      audio: { echoCancellation: true },
      video: { width: { ideal: 1280 }, height: { ideal: 720 } },
    });
    expect(mediaConstraints(false).video).toBe(false);
  });
});

describe('negotiation rule', () => {
  it('the first one in makes its offer ahead (sent to whoever joins); a newcomer who finds the other waits for it', () => {
    expect(offersAhead({ channelId: 'c', peers: [], waiting: [] })).toBe(true);
    expect(offersAhead({ channelId: 'c', peers: ['yx-a'], waiting: [] })).toBe(false);
  });
});

describe('relayed data (untrusted)', () => {
  it('takes descriptions and candidates, and nothing else', () => {
    expect(parseRelay({ kind: 'description', description: { type: 'offer', sdp: 'v=0' } }))
      .toEqual({ kind: 'description', description: { type: 'offer', sdp: 'v=0' } });
    expect(parseRelay({ kind: 'candidate', candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0, extra: 1 } }))
      .toEqual({ kind: 'candidate', candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 } });
    expect(parseRelay({ kind: 'description', description: { type: 'rollback', sdp: '' } })).toBeNull();
    expect(parseRelay({ kind: 'description', description: { type: 'offer', sdp: 1 } })).toBeNull();
    expect(parseRelay({ kind: 'candidate', candidate: { candidate: 5 } })).toBeNull();
    expect(parseRelay({ kind: 'other' })).toBeNull();
    expect(parseRelay('offer')).toBeNull();
    expect(parseRelay(null)).toBeNull();
  });
});

describe('network quality (Agora 0–6)', () => {
  it('is unknown without a measure, and the worse of round-trip time and loss', () => {
    expect(networkQuality({})).toBe(0);
    expect(networkQuality({ rttMs: 2, lossRate: 0 })).toBe(1);
    expect(networkQuality({ rttMs: 150 })).toBe(2);
    expect(networkQuality({ rttMs: 50, lossRate: 0.05 })).toBe(3);
    expect(networkQuality({ rttMs: 600, lossRate: 0 })).toBe(4);
    expect(networkQuality({ rttMs: 50, lossRate: 0.2 })).toBe(5);
    expect(networkQuality({ rttMs: 2000, lossRate: 0 })).toBe(6);
    expect(networkQuality({ lossRate: 0.5 })).toBe(6);
  });
});
