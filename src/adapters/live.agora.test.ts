/**
 * The Agora live media adapter (live.agora.ts) against the SDK double
 * (doubles/agora-rtc.double.ts): telemetry off before anything is made, SPEC §9 live mode
 * with VP9 and a 720p camera, the roles, SPEC §3 media errors by SDK code, one host and many
 * viewers, and the events the live machines hear (first frame, host left and back, link lost).
 */
import { describe, expect, it, vi } from 'vitest';
import type { LiveMediaEvent } from '../../machines/ports/live.port';
import { MediaError, MediaErrorText } from '../../machines/ports/call.port';
import { AgoraRtcCloud, AgoraRtcDoubleSdk, fakeTracksOf } from './doubles/agora-rtc.double';
import { agoraDevice, APP_ID, settle } from './doubles/agora-rtc.device';
import { createAgoraLiveMedia } from './live.agora';

// The SDK module is replaced by a double: no SDK code runs in these tests.
const loaded = vi.hoisted(() => ({ sdk: null as unknown }));
vi.mock('./live.agora.sdk', () => ({ default: loaded.sdk }));
loaded.sdk = new AgoraRtcDoubleSdk(new AgoraRtcCloud());

describe('SDK chunk loader', () => {
  it('loadAgoraLive resolves to the default export of live.agora.sdk.ts (reached only by a dynamic import)', async () => {
    const { loadAgoraLive } = await import('./live.agora.load');
    await expect(loadAgoraLive()).resolves.toBe(loaded.sdk);
  });
});

function device(cloud: AgoraRtcCloud, account: string, options: { failLoads?: number } = {}) {
  const d = agoraDevice(cloud, account, options);
  const { sdk } = d;
  const events: LiveMediaEvent['type'][] = [];
  /** Telemetry as it was when each client or track was made. */
  const reportsWhenMade: unknown[] = [];
  for (const method of ['createClient', 'createCameraVideoTrack', 'createMicrophoneAudioTrack'] as const) {
    const original = sdk[method].bind(sdk) as (...args: unknown[]) => unknown;
    (sdk as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      reportsWhenMade.push(sdk.parameters.get('ENABLE_EVENT_REPORT'));
      return original(...args);
    };
  }
  const port = createAgoraLiveMedia(d.deps);
  port.subscribe((event) => events.push(event.type));
  return { ...d, port, events, reportsWhenMade };
}

/** A host on the air and two viewers watching. */
async function room() {
  const cloud = new AgoraRtcCloud();
  const host = device(cloud, 'yx-host');
  const a = device(cloud, 'yx-a');
  const b = device(cloud, 'yx-b');
  await host.port.publish('live-1', 'yx-host');
  await a.port.watch('live-1', 'yx-a');
  await b.port.watch('live-1', 'yx-b');
  await settle();
  return { cloud, host, a, b };
}

describe('host', () => {
  it('[§9] turns telemetry off first, opens the microphone and a 720p camera keeping resolution, joins a live VP9 client as host with the rtcToken and publishes both', async () => {
    const cloud = new AgoraRtcCloud();
    const host = device(cloud, 'yx-host');
    await host.port.publish('live-1', 'yx-host');
    expect(host.reportsWhenMade).toEqual([false, false, false]);
    expect(host.sdk.parameters.get('UPLOAD_LOG')).toBe(false);
    expect(host.sdk.logUploadDisabled).toBe(true);
    expect(host.sdk.tracks.map((t) => t.trackMediaType)).toEqual(['audio', 'video']);
    expect(host.sdk.tracks[1]?.config).toEqual({
      encoderConfig: { width: 1280, height: 720, frameRate: 15, bitrateMax: 1130 }, optimizationMode: 'detail',
    });
    expect(host.client().config).toEqual({ mode: 'live', codec: 'vp9' });
    expect(host.client().role).toBe('host');
    expect(host.client().joinCalls).toEqual([[APP_ID, 'live-1', cloud.tokenFor('yx-host'), 'yx-host']]);
    expect(host.client().published.map((t) => t.trackMediaType)).toEqual(['audio', 'video']);
    expect(fakeTracksOf(host.port.media.local()).map((t) => t.kind)).toEqual(['audio', 'video']);
    expect(host.port.media.remote()).toBeNull();
  });

  it('[§3] a camera refusal is the media error of its SDK code; the microphone opened before it is closed and nothing joins', async () => {
    const cloud = new AgoraRtcCloud();
    const host = device(cloud, 'yx-host');
    host.sdk.failNext.camera = 'PERMISSION_DENIED';
    const error = await host.port.publish('live-1', 'yx-host').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({ kind: 'permissionDenied', message: MediaErrorText.permissionDenied });
    expect(host.sdk.tracks.map((t) => [t.trackMediaType, t.closed])).toEqual([['audio', true]]);
    expect(host.sdk.clients).toEqual([]);
    expect(host.port.media.local()).toBeNull();
  });

  it('a refused join turns the camera off and leaves no listener; the next publish works', async () => {
    const cloud = new AgoraRtcCloud();
    const host = device(cloud, 'yx-host');
    cloud.failNextJoin('yx-host', 'CAN_NOT_GET_GATEWAY_SERVER');
    await expect(host.port.publish('live-1', 'yx-host')).rejects.toMatchObject({ code: 'CAN_NOT_GET_GATEWAY_SERVER' });
    expect(host.sdk.tracks.map((t) => t.closed)).toEqual([true, true]);
    expect(host.port.media.local()).toBeNull();
    expect(host.client().listenerCount()).toBe(0);
    await host.port.publish('live-1', 'yx-host');
    expect(cloud.members('live-1')).toEqual(['yx-host']);
  });

  it('a leave while the camera opens, or during the join, opens nothing after it: camera off, channel left', async () => {
    const cloud = new AgoraRtcCloud();
    const host = device(cloud, 'yx-host');
    const opening = host.port.publish('live-1', 'yx-host');
    await host.port.leave();
    await expect(opening).rejects.toThrow('The live room was left before this finished');
    expect(host.sdk.tracks.map((t) => t.closed)).toEqual([true, true]);

    const release = cloud.holdJoins();
    const joining = host.port.publish('live-1', 'yx-host');
    await vi.waitFor(() => expect(host.sdk.clients).toHaveLength(1));
    await host.port.leave();
    release();
    await expect(joining).rejects.toThrow('The live room was left before this finished');
    expect(cloud.members('live-1')).toEqual([]);
    expect(host.sdk.tracks.map((t) => t.closed)).toEqual([true, true, true, true]);
    expect(host.port.media.local()).toBeNull();
  });

  it('a failed SDK load is tried again at the next publish', async () => {
    const host = device(new AgoraRtcCloud(), 'yx-host', { failLoads: 1 });
    await expect(host.port.publish('live-1', 'yx-host')).rejects.toThrow('chunk failed');
    await host.port.publish('live-1', 'yx-host');
    expect(host.loads()).toBe(2);
  });
});

describe('viewers', () => {
  it('join as audience and subscribe the host: its sound plays, its video shows, the first decoded frame is told once', async () => {
    const { cloud, host, a, b } = await room();
    expect(cloud.members('live-1')).toEqual(['yx-host', 'yx-a', 'yx-b']);
    for (const viewer of [a, b]) {
      expect(viewer.client().config).toEqual({ mode: 'live', codec: 'vp9' });
      expect(viewer.client().role).toBe('audience');
      expect(viewer.client().published).toEqual([]);
      expect(viewer.sdk.tracks).toEqual([]);
      expect(viewer.client().subscribedAudio.map((t) => t.playing)).toEqual([true]);
      expect(fakeTracksOf(viewer.port.media.remote())).toEqual([host.sdk.tracks[1]?.media]);
      expect(viewer.port.media.local()).toBeNull();
    }
    // The host is seen: the live machine may leave its calling state on it.
    expect(a.events).toEqual(['hostJoined']);
    cloud.decodeFirstFrame('yx-a');
    a.framed[0]?.();
    cloud.decodeFirstFrame('yx-a');
    expect(a.events).toEqual(['hostJoined', 'firstRemoteFrame']);
    // The detached element's frame is enough where the SDK's event does not come.
    b.framed[0]?.();
    expect(b.events).toEqual(['hostJoined', 'firstRemoteFrame']);
    expect(host.events).toEqual([]);
  });

  it('the host leaving is hostLeft once (unpublished, then left); its return is hostJoined, a new subscription and a first frame again', async () => {
    const { cloud, host, a, b } = await room();
    for (const viewer of [a, b]) viewer.framed[0]?.();
    await host.client().unpublish();
    await host.port.leave();
    for (const viewer of [a, b]) {
      expect(viewer.events).toEqual(['hostJoined', 'firstRemoteFrame', 'hostLeft']);
      expect(viewer.port.media.remote()).toBeNull();
      expect(viewer.client().subscribedAudio.map((t) => t.playing)).toEqual([false]);
      expect(viewer.watching()).toBe(0);
    }
    expect(host.sdk.tracks.map((t) => t.media.readyState)).toEqual(['ended', 'ended']);
    expect(host.port.media.local()).toBeNull();

    await host.port.publish('live-1', 'yx-host');
    await settle();
    for (const viewer of [a, b]) {
      expect(viewer.events).toEqual(['hostJoined', 'firstRemoteFrame', 'hostLeft', 'hostJoined']);
      expect(fakeTracksOf(viewer.port.media.remote())).toEqual([host.sdk.tracks[3]?.media]);
    }
    cloud.decodeFirstFrame('yx-a');
    b.framed[1]?.();
    for (const viewer of [a, b]) expect(viewer.events).toEqual(['hostJoined', 'firstRemoteFrame', 'hostLeft', 'hostJoined', 'firstRemoteFrame']);
  });

  it('watching before the host arrives (it was in a private call): its arrival is hostJoined, then the first frame', async () => {
    const cloud = new AgoraRtcCloud();
    const host = device(cloud, 'yx-host');
    const a = device(cloud, 'yx-a');
    await a.port.watch('live-1', 'yx-a');
    expect(a.port.media.remote()).toBeNull();
    expect(a.events).toEqual([]);
    await host.port.publish('live-1', 'yx-host');
    await settle();
    expect(a.events).toEqual(['hostJoined']);
    cloud.decodeFirstFrame('yx-a');
    expect(a.events).toEqual(['hostJoined', 'firstRemoteFrame']);
  });

  it('a viewer leaving is unseen: the host and the other viewer hear nothing, and its listeners are gone', async () => {
    const { host, a, b } = await room();
    b.framed[0]?.();
    await a.port.leave();
    await a.port.leave();
    expect(host.events).toEqual([]);
    expect(b.events).toEqual(['hostJoined', 'firstRemoteFrame']);
    expect(fakeTracksOf(b.port.media.remote())).toEqual([host.sdk.tracks[1]?.media]);
    expect(a.port.media.remote()).toBeNull();
    expect(a.client().listenerCount()).toBe(0);
    expect(a.events).toEqual(['hostJoined']);
  });

  it('a link the SDK gave up on (DISCONNECTED, not by leaving) is connectionLost, for a viewer and for the host', async () => {
    const { cloud, host, a, b } = await room();
    cloud.dropLink('yx-a');
    expect(a.events).toEqual(['hostJoined', 'connectionLost']);
    expect(a.port.media.remote()).toBeNull();
    expect(b.events).toEqual(['hostJoined']);
    cloud.dropLink('yx-host');
    expect(host.events).toEqual(['connectionLost']);
    expect(b.events).toEqual(['hostJoined', 'hostLeft']);
    await a.port.leave();
    await host.port.leave();
    expect(a.events).toEqual(['hostJoined', 'connectionLost']);
    expect(host.events).toEqual(['connectionLost']);
  });
});
