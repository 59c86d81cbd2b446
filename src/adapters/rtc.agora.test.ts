/**
 * The Agora RTC adapter against the SDK double (doubles/agora-rtc.double.ts): telemetry off,
 * SPEC §9 720p and VP9, SPEC §3 media errors by SDK code, the rtc token at join, the peer's
 * media, and the events the call machine hears (first frame, remote left, link lost, quality).
 */
import { describe, expect, it, vi } from 'vitest';
import type { RtcEvent } from '../../machines/ports/call.port';
import { MediaError, MediaErrorText } from '../../machines/ports/call.port';
import { AgoraRtcCloud, AgoraRtcDoubleSdk, fakeTracksOf } from './doubles/agora-rtc.double';
import { agoraDevice, APP_ID, settle } from './doubles/agora-rtc.device';
import { createAgoraRtcPort, MEDIA_ERROR_OF, mediaErrorOf } from './rtc.agora';

// The SDK module is replaced by a double: no SDK code runs in these tests.
const loaded = vi.hoisted(() => ({ sdk: null as unknown }));
vi.mock('./rtc.agora.sdk', () => ({ default: loaded.sdk }));
loaded.sdk = new AgoraRtcDoubleSdk(new AgoraRtcCloud());

describe('SDK chunk loader', () => {
  it('loadAgoraRtc resolves to the default export of rtc.agora.sdk.ts (reached only by a dynamic import)', async () => {
    const { loadAgoraRtc } = await import('./rtc.agora.load');
    await expect(loadAgoraRtc()).resolves.toBe(loaded.sdk);
  });
});

function device(cloud: AgoraRtcCloud, account: string, options: { failLoads?: number } = {}) {
  const d = agoraDevice(cloud, account, options);
  const events: RtcEvent[] = [];
  const port = createAgoraRtcPort(d.deps);
  port.subscribe((event) => events.push(event));
  return { ...d, port, events };
}

describe('prepare', () => {
  it('[§9] turns telemetry off, then opens the microphone and a 720p camera that keeps its resolution', async () => {
    const a = device(new AgoraRtcCloud(), 'yx-a');
    await a.port.prepare(true);
    expect(a.sdk.parameters.get('ENABLE_EVENT_REPORT')).toBe(false);
    expect(a.sdk.parameters.get('UPLOAD_LOG')).toBe(false);
    expect(a.sdk.logUploadDisabled).toBe(true);
    expect(a.sdk.logLevel).toBe(3);
    expect(a.sdk.tracks.map((t) => t.trackMediaType)).toEqual(['audio', 'video']);
    expect(a.sdk.tracks[1]?.config).toEqual({
      encoderConfig: { width: 1280, height: 720, frameRate: 15, bitrateMax: 1130 }, optimizationMode: 'detail',
    });
    expect(fakeTracksOf(a.port.media.local()).map((t) => t.kind)).toEqual(['audio', 'video']);
  });

  it('an audio call opens the microphone only', async () => {
    const a = device(new AgoraRtcCloud(), 'yx-a');
    await a.port.prepare(false);
    expect(a.sdk.tracks.map((t) => t.trackMediaType)).toEqual(['audio']);
  });

  it('[§3] a camera refusal is the media error of its SDK code, and the microphone opened before it is closed', async () => {
    const a = device(new AgoraRtcCloud(), 'yx-a');
    a.sdk.failNext.camera = 'PERMISSION_DENIED';
    const events: RtcEvent[] = [];
    a.port.subscribe((e) => events.push(e));
    const error = await a.port.prepare(true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({ kind: 'permissionDenied', message: MediaErrorText.permissionDenied });
    // Said as an event too, for a call that rang without waiting for the camera.
    expect(events).toEqual([{ type: 'mediaFailed', error }]);
    expect(a.sdk.tracks.map((t) => [t.trackMediaType, t.closed])).toEqual([['audio', true]]);
    expect(a.port.media.local()).toBeNull();
  });

  it.each(Object.entries(MEDIA_ERROR_OF))('[§3] SDK code %s is the media error %s', (code, kind) => {
    expect(mediaErrorOf({ code, message: 'x' })).toMatchObject({ kind });
  });

  it('camera and microphone are not known to be allowed without the Permissions API (the ring then waits for them)', () => {
    expect(device(new AgoraRtcCloud(), 'yx-a').port.mediaAllowed()).toBe(false);
  });

  it('passes other failures on as they are', async () => {
    expect(mediaErrorOf({ code: 'UNEXPECTED_ERROR' })).toBeNull();
    expect(mediaErrorOf(new Error('x'))).toBeNull();
    const a = device(new AgoraRtcCloud(), 'yx-a');
    a.sdk.failNext.microphone = 'UNEXPECTED_ERROR';
    await expect(a.port.prepare(true)).rejects.toMatchObject({ code: 'UNEXPECTED_ERROR' });
  });

  it('a leave while the camera is opening closes what opens after it (the camera light does not stay on)', async () => {
    const a = device(new AgoraRtcCloud(), 'yx-a');
    const events: RtcEvent[] = [];
    a.port.subscribe((e) => events.push(e));
    const preparing = a.port.prepare(true);
    await a.port.leave();
    await expect(preparing).rejects.toThrow('The call was left before this finished');
    // A preparation the call left is no failure of the call.
    expect(events).toEqual([]);
    expect(a.sdk.tracks.map((t) => t.closed)).toEqual([true, true]);
    expect(a.port.media.local()).toBeNull();
  });

  it('one preparation per call: the accept after a ring\'s preview finds the tracks open; after a leave the next call opens new ones', async () => {
    const a = device(new AgoraRtcCloud(), 'yx-a');
    const preview = a.port.prepare(true);
    await Promise.all([preview, a.port.prepare(true)]);
    await a.port.prepare(true);
    expect(a.sdk.tracks.map((t) => t.trackMediaType)).toEqual(['audio', 'video']);
    await a.port.leave();
    await a.port.prepare(true);
    expect(a.sdk.tracks.map((t) => [t.trackMediaType, t.closed])).toEqual([['audio', true], ['video', true], ['audio', false], ['video', false]]);
  });

  it('the rtcToken is asked for beside the camera and is the join\'s; it is kept for the next calls, and a refused join asks again', async () => {
    const cloud = new AgoraRtcCloud();
    const d = device(cloud, 'yx-a');
    let asked = 0;
    const port = createAgoraRtcPort({ ...d.deps, rtcToken: async () => { asked += 1; return cloud.tokenFor('yx-a'); } });
    const preparing = port.prepare(true);
    expect(asked).toBe(1);
    await preparing;
    await port.join('ch-9', 'yx-a');
    expect(asked).toBe(1);
    expect(d.client().joinCalls).toEqual([[APP_ID, 'ch-9', cloud.tokenFor('yx-a'), 'yx-a']]);
    await port.leave();
    await port.prepare(true);
    await port.join('ch-10', 'yx-a');
    expect(asked).toBe(1);
    await port.leave();
    cloud.failNextJoin('yx-a', 'TOKEN_EXPIRE');
    await expect(port.join('ch-11', 'yx-a')).rejects.toMatchObject({ code: 'TOKEN_EXPIRE' });
    await port.join('ch-11', 'yx-a');
    expect(asked).toBe(2);
  });

  it('a failed SDK load is tried again at the next prepare', async () => {
    const a = device(new AgoraRtcCloud(), 'yx-a', { failLoads: 1 });
    await expect(a.port.prepare(true)).rejects.toThrow('chunk failed');
    await a.port.prepare(true);
    expect(a.loads()).toBe(2);
  });
});

describe('a call between two devices', () => {
  async function call() {
    const cloud = new AgoraRtcCloud();
    const a = device(cloud, 'yx-a');
    const b = device(cloud, 'yx-b');
    await a.port.prepare(true);
    await a.port.join('ch-1', 'yx-a');
    await b.port.prepare(true);
    await b.port.join('ch-1', 'yx-b');
    await settle();
    return { cloud, a, b };
  }

  it('[§9] joins an rtc-mode VP9 client with the rtcToken and the account as uid, and publishes both tracks', async () => {
    const { cloud, a } = await call();
    expect(a.client().config).toEqual({ mode: 'rtc', codec: 'vp9' });
    expect(a.client().joinCalls).toEqual([[APP_ID, 'ch-1', cloud.tokenFor('yx-a'), 'yx-a']]);
    expect(a.client().published.map((t) => t.trackMediaType)).toEqual(['audio', 'video']);
    expect(cloud.members('ch-1')).toEqual(['yx-a', 'yx-b']);
  });

  it('each side subscribes to the other: the sound plays, the video shows, the first decoded frame is told once', async () => {
    const { cloud, a, b } = await call();
    for (const side of [a, b]) {
      expect(side.client().subscribedAudio.map((t) => t.playing)).toEqual([true]);
      expect(side.client().subscribedVideo).toHaveLength(1);
    }
    expect(fakeTracksOf(a.port.media.remote())).toEqual([b.sdk.tracks[1]?.media]);
    expect(a.events).toEqual([]);
    cloud.decodeFirstFrame('yx-a');
    a.framed[0]?.();
    cloud.decodeFirstFrame('yx-a');
    expect(a.events).toEqual([{ type: 'firstRemoteFrame' }]);
    // The detached element's frame is enough where the SDK's event does not come.
    b.framed[0]?.();
    expect(b.events).toEqual([{ type: 'firstRemoteFrame' }]);
  });

  it('an audio call: the peer\'s first decoded sound is told once (firstRemoteAudio), and nothing after the leave', async () => {
    const cloud = new AgoraRtcCloud();
    const a = device(cloud, 'yx-a');
    const b = device(cloud, 'yx-b');
    for (const [side, account] of [[a, 'yx-a'], [b, 'yx-b']] as const) {
      await side.port.prepare(false);
      await side.port.join('ch-2', account);
    }
    await settle();
    expect(a.client().published.map((t) => t.trackMediaType)).toEqual(['audio']);
    cloud.decodeFirstSound('yx-a');
    cloud.decodeFirstSound('yx-a');
    expect(a.events).toEqual([{ type: 'firstRemoteAudio' }]);
    await b.port.leave();
    cloud.decodeFirstSound('yx-b');
    expect(b.events).toEqual([]);
  });

  it('the peer leaving is remoteLeft; leaving closes the tracks (the camera light goes off) and says nothing more', async () => {
    const { a, b } = await call();
    await b.port.leave();
    expect(a.events).toEqual([{ type: 'remoteLeft' }]);
    expect(a.port.media.remote()).toBeNull();
    expect(b.sdk.tracks.map((t) => t.closed)).toEqual([true, true]);
    expect(b.sdk.tracks.map((t) => t.media.readyState)).toEqual(['ended', 'ended']);
    expect(b.port.media.local()).toBeNull();
    expect(b.events).toEqual([]);
    expect(b.client().listenerCount()).toBe(0);
  });

  it('a link the SDK gave up on (DISCONNECTED, not by leaving) is connectionLost', async () => {
    const { cloud, a, b } = await call();
    cloud.dropLink('yx-a');
    expect(a.events).toEqual([{ type: 'connectionLost' }]);
    expect(b.events).toEqual([{ type: 'remoteLeft' }]);
    await a.port.leave();
    expect(a.events).toEqual([{ type: 'connectionLost' }]);
  });

  it('network quality is the worse of up- and downlink, told when it changes', async () => {
    const { cloud, a } = await call();
    cloud.reportQuality('yx-a', 1, 2);
    cloud.reportQuality('yx-a', 2, 1);
    cloud.reportQuality('yx-a', 6, 1);
    expect(a.events).toEqual([{ type: 'networkQuality', quality: 2 }, { type: 'networkQuality', quality: 6 }]);
  });

  it('a callee who took the call before her camera was open joins meanwhile; her tracks are published as they open', async () => {
    const cloud = new AgoraRtcCloud();
    const a = device(cloud, 'yx-a');
    const b = device(cloud, 'yx-b');
    await a.port.prepare(true);
    await a.port.join('ch-4', 'yx-a');
    await b.port.join('ch-4', 'yx-b');
    expect(b.client().published).toEqual([]);
    await b.port.prepare(true);
    await settle();
    expect(b.client().published.map((t) => t.trackMediaType)).toEqual(['audio', 'video']);
    expect(a.client().subscribedVideo).toHaveLength(1);
    // A second prepare of the same call is the same preparation: nothing is published twice.
    await b.port.prepare(true);
    expect(b.client().published).toHaveLength(2);
  });

  it('a leave during the join leaves the channel once it is joined', async () => {
    const cloud = new AgoraRtcCloud();
    const a = device(cloud, 'yx-a');
    await a.port.prepare(true);
    const release = cloud.holdJoins();
    const joining = a.port.join('ch-3', 'yx-a');
    await settle();
    expect(a.client().joinCalls).toHaveLength(1);
    await a.port.leave();
    release();
    await expect(joining).rejects.toThrow('The call was left before this finished');
    expect(cloud.members('ch-3')).toEqual([]);
    expect(a.client().published).toEqual([]);
  });

  it('a refused join rejects and leaves nothing behind; the next join (room preparation retried once) works', async () => {
    const cloud = new AgoraRtcCloud();
    const a = device(cloud, 'yx-a');
    await a.port.prepare(true);
    cloud.failNextJoin('yx-a', 'UID_CONFLICT');
    await expect(a.port.join('ch-2', 'yx-a')).rejects.toMatchObject({ code: 'UID_CONFLICT' });
    expect(a.client().listenerCount()).toBe(0);
    await a.port.join('ch-2', 'yx-a');
    expect(cloud.members('ch-2')).toEqual(['yx-a']);
    expect(a.sdk.clients).toHaveLength(2);
  });
});
