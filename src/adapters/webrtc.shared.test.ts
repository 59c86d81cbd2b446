/**
 * Opening the own camera and microphone for a call (webrtc.shared.ts `openOwnMedia`): apart
 * when both are allowed already, so that the camera can be sent before the microphone is set
 * up; in one request otherwise, so that a person is asked once. Fake devices and streams.
 */
import { describe, expect, it } from 'vitest';
import { MediaErrorText } from '../../machines/ports/call.port';
import type { WebSocketLike } from './hub.socket';
import { openOwnMedia, spareRelaySocket } from './webrtc.shared';

class FakeTrack {
  stopped = false;
  constructor(readonly kind: 'audio' | 'video') {}
  stop() { this.stopped = true; }
}
class FakeStream {
  constructor(readonly tracks: FakeTrack[]) {}
  getTracks() { return this.tracks; }
  addTrack(track: FakeTrack) { this.tracks.push(track); }
}

/** Devices whose every request the test answers (`open` / `refuse` the n-th one). */
function devices() {
  const requests: { constraints: MediaStreamConstraints; resolve: (s: FakeStream) => void; reject: (e: unknown) => void }[] = [];
  const media = {
    getUserMedia: (constraints: MediaStreamConstraints) => new Promise<FakeStream>((resolve, reject) => requests.push({ constraints, resolve, reject })),
  } as unknown as MediaDevices;
  const open = (i: number) => {
    const { constraints } = requests[i]!;
    const stream = new FakeStream([...(constraints.audio ? [new FakeTrack('audio')] : []), ...(constraints.video ? [new FakeTrack('video')] : [])]);
    requests[i]!.resolve(stream);
    return stream;
  };
  const refuse = (i: number, name: string) => requests[i]!.reject(Object.assign(new Error(name), { name }));
  return { media, requests, open, refuse };
}
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const kinds = (s: MediaStream) => s.getTracks().map((t) => t.kind);

describe('[§3 §9] the own camera and microphone', () => {
  it('allowed already: asked for apart, the camera handed on as soon as it opens, then both as one stream', async () => {
    const d = devices();
    const cameras: MediaStream[] = [];
    const opening = openOwnMedia(d.media, true, { allowed: true, stale: () => false, left: 'left', onCamera: (c) => cameras.push(c) });
    expect(d.requests.map((r) => Object.keys(r.constraints))).toEqual([['video'], ['audio']]);
    expect(d.requests[0]!.constraints.video).toMatchObject({ width: { ideal: 1280 }, height: { ideal: 720 } });
    d.open(0);
    await flush();
    expect(cameras.map(kinds)).toEqual([['video']]);
    d.open(1);
    expect(kinds(await opening)).toEqual(['video', 'audio']);
  });

  it('not allowed yet (or an audio call): one request, so the person is asked once', async () => {
    for (const [video, allowed] of [[true, false], [false, true]] as const) {
      const d = devices();
      const opening = openOwnMedia(d.media, video, { allowed, stale: () => false, left: 'left' });
      expect(d.requests).toHaveLength(1);
      expect(Boolean(d.requests[0]!.constraints.video)).toBe(video);
      d.open(0);
      expect(kinds(await opening)).toEqual(video ? ['audio', 'video'] : ['audio']);
    }
  });

  it('a refused microphone closes the camera that opened, and is the SPEC text of its refusal', async () => {
    const d = devices();
    const opening = openOwnMedia(d.media, true, { allowed: true, stale: () => false, left: 'left' });
    const camera = d.open(0);
    d.refuse(1, 'NotAllowedError');
    await expect(opening).rejects.toMatchObject({ name: 'MediaError', message: MediaErrorText.permissionDenied });
    expect(camera.tracks.every((t) => t.stopped)).toBe(true);
  });

  it('a call left while they opened: both go off again, and nothing is handed on', async () => {
    const d = devices();
    let left = false;
    const cameras: MediaStream[] = [];
    const opening = openOwnMedia(d.media, true, { allowed: true, stale: () => left, left: 'The call was left', onCamera: (c) => cameras.push(c) });
    left = true;
    const camera = d.open(0);
    const microphone = d.open(1);
    await expect(opening).rejects.toThrow('The call was left');
    expect(cameras).toEqual([]);
    expect([...camera.tracks, ...microphone.tracks].every((t) => t.stopped)).toBe(true);
  });
});

/** WebSockets the test opens, drops or fails by hand. */
function sockets() {
  const made: FakeWebSocket[] = [];
  class FakeWebSocket implements WebSocketLike {
    readyState = 0;
    onopen: ((event: never) => void) | null = null;
    onmessage: ((event: never) => void) | null = null;
    onclose: ((event: never) => void) | null = null;
    onerror: ((event: never) => void) | null = null;
    closedByUs = false;
    constructor(readonly url: string) { made.push(this); }
    send() {}
    close() { this.closedByUs = true; this.readyState = 3; }
    open() { this.readyState = 1; (this.onopen as ((e: unknown) => void) | null)?.({}); }
    drop() { this.readyState = 3; (this.onclose as ((e: unknown) => void) | null)?.({ code: 1006, reason: '' }); }
  }
  return { made, WebSocketImpl: FakeWebSocket };
}

describe('the relay socket kept for the next join', () => {
  it('ready opens one (only when there is none); take hands it over once', async () => {
    const { made, WebSocketImpl } = sockets();
    const spare = spareRelaySocket({ url: 'ws://hub/realtime/rtc', WebSocketImpl });
    expect(spare.take()).toBeNull();
    spare.ready();
    spare.ready();
    expect(made).toHaveLength(1);
    made[0]!.open();
    await flush();
    const taken = spare.take();
    expect(taken?.socket.isOpen).toBe(true);
    expect(spare.take()).toBeNull();
    spare.ready();
    expect(made).toHaveLength(2);
  });

  it('one that drops or cannot open while it waits is let go: the next ready opens another', async () => {
    const { made, WebSocketImpl } = sockets();
    const spare = spareRelaySocket({ url: 'ws://hub/realtime/rtc', WebSocketImpl });
    spare.ready();
    made[0]!.open();
    await flush();
    made[0]!.drop();
    await flush();
    expect(spare.take()).toBeNull();
    spare.ready();
    made[1]!.drop(); // never opened: the hub cannot be reached
    await flush();
    expect(spare.take()).toBeNull();
    spare.ready();
    expect(made).toHaveLength(3);
  });
});
