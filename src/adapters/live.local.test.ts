/**
 * The local live media adapter (live.local.ts) over a real reference hub, in Node: the
 * browser's camera and peer connections are stand-ins that record what the adapter asks of
 * them, and the other ends of the room are plain hub sockets. What is tested here is the
 * negotiation one-to-many, the events the live machines hear, media errors and cleanup;
 * decoded video in a real browser is tests/e2e/live-media.spec.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { LiveMediaEvent } from '../../machines/ports/live.port';
import { RealtimePath, type LiveRole, type RtcLiveJoinResult, type RtcPush } from '../api/contract/realtime';
import { startRealtimeServer, type RealtimeTestServer, type SeededUser } from '../../server/realtime/testing';
import { HubSocket, type WebSocketImpl } from './hub.socket';
import { createLocalLiveMedia, type LiveMediaAdapter } from './live.local';

// ---- browser stand-ins ----

class FakeTrack {
  readyState: 'live' | 'ended' = 'live';
  constructor(readonly kind: 'audio' | 'video') {}
  stop(): void {
    this.readyState = 'ended';
  }
}

class FakeStream {
  readonly tracks = [new FakeTrack('audio'), new FakeTrack('video')];
  getTracks(): FakeTrack[] {
    return this.tracks;
  }
}

interface FakeTransceiver {
  direction: RTCRtpTransceiverDirection;
  receiver: { track: { kind: string } };
  sender: FakeSender;
  codecs: string[] | null;
  setCodecPreferences(codecs: { mimeType: string }[]): void;
}

class FakeSender {
  track: FakeTrack | null = null;
  parameters: { degradationPreference?: string } = {};
  getParameters() {
    return { ...this.parameters };
  }
  async setParameters(parameters: { degradationPreference?: string }): Promise<void> {
    this.parameters = parameters;
  }
}

const CODECS = [{ mimeType: 'video/VP8' }, { mimeType: 'video/H264' }, { mimeType: 'video/VP9' }];

class FakePeerConnection {
  static made: FakePeerConnection[] = [];
  readonly transceivers: FakeTransceiver[] = [];
  readonly candidates: RTCIceCandidateInit[] = [];
  localDescription: { type: string; sdp: string } | null = null;
  remoteDescription: { type: string; sdp: string } | null = null;
  connectionState: RTCPeerConnectionState = 'new';
  onicecandidate: ((event: { candidate: { toJSON(): RTCIceCandidateInit } | null }) => void) | null = null;
  ontrack: unknown = null;
  onconnectionstatechange: (() => void) | null = null;

  constructor(readonly configuration: RTCConfiguration) {
    FakePeerConnection.made.push(this);
  }

  addTransceiver(kind: string, init: { direction: RTCRtpTransceiverDirection }): FakeTransceiver {
    const transceiver: FakeTransceiver = {
      direction: init.direction, receiver: { track: { kind } }, sender: new FakeSender(), codecs: null,
      setCodecPreferences(codecs) {
        this.codecs = codecs.map((c) => c.mimeType);
      },
    };
    this.transceivers.push(transceiver);
    return transceiver;
  }

  getTransceivers(): FakeTransceiver[] {
    return this.transceivers;
  }

  getSenders(): FakeSender[] {
    return this.transceivers.map((t) => t.sender);
  }

  /** As browsers do after an offer: a slot of the track's kind that sends nothing yet takes it. */
  addTrack(track: FakeTrack): FakeSender {
    const free = this.transceivers.find((t) => t.receiver.track.kind === track.kind && t.sender.track === null)
      ?? this.addTransceiver(track.kind, { direction: 'sendrecv' });
    free.sender.track = track;
    free.direction = 'sendonly';
    return free.sender;
  }

  async createOffer() {
    return { type: 'offer', sdp: `offer ${this.transceivers.map((t) => `${t.receiver.track.kind}:${t.direction}`).join(' ')}` };
  }

  async createAnswer() {
    return { type: 'answer', sdp: `answer ${this.transceivers.map((t) => `${t.receiver.track.kind}:${t.direction}`).join(' ')}` };
  }

  async setLocalDescription(description: { type: string; sdp: string }): Promise<void> {
    this.localDescription = description;
    // A host candidate right away, as a browser gathers one on loopback.
    queueMicrotask(() => this.onicecandidate?.({ candidate: { toJSON: () => ({ candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMid: '0', sdpMLineIndex: 0 }) } }));
  }

  async setRemoteDescription(description: { type: string; sdp: string }): Promise<void> {
    this.remoteDescription = description;
    if (description.type === 'offer') {
      for (const kind of ['audio', 'video']) if (description.sdp.includes(`${kind}:recvonly`)) this.addTransceiver(kind, { direction: 'recvonly' });
    }
  }

  async addIceCandidate(candidate: RTCIceCandidateInit): Promise<void> {
    this.candidates.push(candidate);
  }

  /** The test moves the connection's state as ICE would. */
  become(state: RTCPeerConnectionState): void {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }

  close(): void {
    this.connectionState = 'closed';
  }
}

const getUserMedia = vi.fn<(constraints: MediaStreamConstraints) => Promise<FakeStream>>();

beforeEach(() => {
  FakePeerConnection.made = [];
  getUserMedia.mockReset();
  getUserMedia.mockImplementation(async () => new FakeStream());
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  vi.stubGlobal('RTCRtpReceiver', { getCapabilities: () => ({ codecs: CODECS }) });
  vi.stubGlobal('navigator', { mediaDevices: { getUserMedia } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

// ---- the hub and the other ends of the room ----

let hub: RealtimeTestServer;
let users: SeededUser[];
const tokens = new Map<SeededUser, string>();
const adapters: LiveMediaAdapter[] = [];

beforeAll(async () => {
  hub = await startRealtimeServer({ users: 3 });
  users = hub.users;
  for (const user of users) tokens.set(user, await hub.rtcTokenOf(user));
});
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((a) => a.leave()));
});
afterAll(() => hub.close());

function adapter(user: SeededUser): { live: LiveMediaAdapter; events: LiveMediaEvent['type'][] } {
  const live = createLocalLiveMedia({
    url: hub.url(RealtimePath.rtc),
    rtcToken: async () => tokens.get(user)!,
    WebSocketImpl: WebSocket as unknown as WebSocketImpl,
    disconnectedGraceMs: 50,
  });
  adapters.push(live);
  const events: LiveMediaEvent['type'][] = [];
  live.subscribe((event) => events.push(event.type));
  return { live, events };
}

/** A plain hub socket in the room: the far end of what the adapter negotiates. */
class End {
  readonly pushes: RtcPush[] = [];
  readonly socket = new HubSocket({
    url: hub.url(RealtimePath.rtc),
    WebSocketImpl: WebSocket as unknown as WebSocketImpl,
    onPush: (push) => this.pushes.push(push as RtcPush),
    onDrop: () => undefined,
  });

  constructor(readonly user: SeededUser) {}

  static async joined(user: SeededUser, channelId: string, role: LiveRole): Promise<End> {
    const end = new End(user);
    await end.socket.ready;
    await end.socket.request<RtcLiveJoinResult>('join', { channelId, account: user.account, token: tokens.get(user), role });
    return end;
  }

  relays(from?: string): Extract<RtcPush, { type: 'relay' }>[] {
    return this.pushes.filter((p): p is Extract<RtcPush, { type: 'relay' }> => p.type === 'relay' && (from === undefined || p.from === from));
  }

  descriptions(from?: string): { type: string; sdp: string }[] {
    return this.relays(from).flatMap((p) => (p.data.kind === 'description' ? [p.data.description as { type: string; sdp: string }] : []));
  }

  send(to: SeededUser, data: object): Promise<unknown> {
    return this.socket.request('relay', { to: to.account, data });
  }
}

/** A fresh live room of the first user, who hosts in every test here (the relay admits by the room, as beginLiveRoom stores it). */
const channel = (() => {
  let n = 0;
  return () => {
    const id = `live-local-${Date.now()}-${n++}`;
    hub.storeLive(id, users[0]!);
    return id;
  };
})();

const until = (check: () => boolean) => expect.poll(check, { timeout: 3000, interval: 5 }).toBe(true);

describe('[§3, §9] the host\'s camera', () => {
  it('asks for 1280×720 and the microphone; a refusal is the media error of its kind, and nothing joins', async () => {
    const user = users[0]!;
    const id = channel();
    const host = adapter(user);
    getUserMedia.mockRejectedValueOnce(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
    await expect(host.live.publish(id, user.account)).rejects.toMatchObject({ name: 'MediaError', kind: 'permissionDenied' });
    expect(getUserMedia).toHaveBeenCalledWith(expect.objectContaining({
      audio: expect.objectContaining({ echoCancellation: true }),
      video: expect.objectContaining({ width: { ideal: 1280 }, height: { ideal: 720 } }),
    }));
    expect(host.live.media.local()).toBeNull();

    vi.stubGlobal('navigator', {});
    await expect(host.live.publish(id, user.account)).rejects.toMatchObject({ name: 'MediaError', kind: 'notSupported' });
    // Nobody is in the channel: a viewer finds no host.
    const viewer = await End.joined(users[1]!, id, 'audience');
    viewer.socket.close();
    expect(host.events).toEqual([]);
  });

  it('a leave while the camera opens turns it off again and joins nothing', async () => {
    const user = users[0]!;
    let open: (stream: FakeStream) => void = () => undefined;
    getUserMedia.mockImplementationOnce(() => new Promise((resolve) => {
      open = resolve;
    }));
    const host = adapter(user);
    const publishing = host.live.publish(channel(), user.account);
    await until(() => getUserMedia.mock.calls.length === 1);
    await host.live.leave();
    const stream = new FakeStream();
    open(stream);
    await expect(publishing).rejects.toThrow('The live room was left before this finished');
    expect(stream.tracks.map((t) => t.readyState)).toEqual(['ended', 'ended']);
    expect(host.live.media.local()).toBeNull();
    expect(FakePeerConnection.made).toEqual([]);
  });
});

describe('host: one connection per viewer', () => {
  it('answers each viewer\'s receive-only offer with its camera and microphone, VP9 first, keeping resolution; a viewer leaving closes its connection only', async () => {
    const [hostUser, aUser, bUser] = users as [SeededUser, SeededUser, SeededUser];
    const id = channel();
    const host = adapter(hostUser);
    await host.live.publish(id, hostUser.account);
    const own = host.live.media.local() as unknown as FakeStream;
    expect(own.getTracks().map((t) => t.readyState)).toEqual(['live', 'live']);

    const a = await End.joined(aUser, id, 'audience');
    const b = await End.joined(bUser, id, 'audience');
    await a.send(hostUser, { kind: 'description', description: { type: 'offer', sdp: 'offer audio:recvonly video:recvonly' } });
    await a.send(hostUser, { kind: 'candidate', candidate: { candidate: 'candidate:a', sdpMid: '0', sdpMLineIndex: 0 } });
    await b.send(hostUser, { kind: 'description', description: { type: 'offer', sdp: 'offer audio:recvonly video:recvonly' } });
    await until(() => a.descriptions().length === 1 && b.descriptions().length === 1);
    expect(a.descriptions()).toEqual([{ type: 'answer', sdp: 'answer audio:sendonly video:sendonly' }]);
    await until(() => a.relays().some((r) => r.data.kind === 'candidate'));

    const [toA, toB] = FakePeerConnection.made as [FakePeerConnection, FakePeerConnection];
    expect(FakePeerConnection.made).toHaveLength(2);
    expect(toA.configuration).toMatchObject({ iceServers: [] });
    expect(toA.getSenders().map((s) => s.track)).toEqual(own.getTracks());
    expect(toB.getSenders().map((s) => s.track)).toEqual(own.getTracks());
    await until(() => toA.getSenders()[1]?.parameters.degradationPreference === 'maintain-resolution');
    expect(toA.transceivers[1]?.codecs?.[0]).toBe('video/VP9');
    await until(() => toA.candidates.length === 1);

    await a.socket.request('leave');
    await until(() => toA.connectionState === 'closed');
    expect(toB.connectionState).toBe('new');
    expect(b.pushes.filter((p) => p.type !== 'relay')).toEqual([]);

    // Viewers' connections failing is their matter: the host stays on the air.
    toB.become('failed');
    expect(toB.connectionState).toBe('closed');
    expect(host.events).toEqual([]);
    expect(own.getTracks().map((t) => t.readyState)).toEqual(['live', 'live']);

    await host.live.leave();
    await host.live.leave();
    expect(own.getTracks().map((t) => t.readyState)).toEqual(['ended', 'ended']);
    expect(host.live.media.local()).toBeNull();
    await until(() => b.pushes.some((p) => p.type === 'hostLeft'));
    for (const end of [a, b]) end.socket.close();
  });
});

describe('viewer', () => {
  it('sees the host (hostJoined) and offers receive-only to it; hostLeft when it goes, hostJoined and a fresh offer when it is back; leave is safe to repeat', async () => {
    const [hostUser, viewerUser] = users as [SeededUser, SeededUser];
    const id = channel();
    const host = await End.joined(hostUser, id, 'host');
    const viewer = adapter(viewerUser);
    await viewer.live.watch(id, viewerUser.account);
    await until(() => host.descriptions().length === 1);
    expect(host.descriptions()[0]).toEqual({ type: 'offer', sdp: 'offer audio:recvonly video:recvonly' });
    const first = FakePeerConnection.made[0]!;
    expect(first.transceivers[1]?.codecs?.[0]).toBe('video/VP9');
    expect(viewer.live.media.local()).toBeNull();
    expect(viewer.events).toEqual(['hostJoined']);

    await host.send(viewerUser, { kind: 'description', description: { type: 'answer', sdp: 'answer audio:sendonly video:sendonly' } });
    await host.send(viewerUser, { kind: 'candidate', candidate: { candidate: 'candidate:h', sdpMid: '0', sdpMLineIndex: 0 } });
    // Not for this adapter: an offer to a viewer, and junk.
    await host.send(viewerUser, { kind: 'description', description: { type: 'offer', sdp: 'offer' } });
    await host.send(viewerUser, { kind: 'nonsense' });
    await until(() => first.candidates.length === 1);
    expect(first.remoteDescription).toEqual({ type: 'answer', sdp: 'answer audio:sendonly video:sendonly' });
    expect(FakePeerConnection.made).toHaveLength(1);

    await host.socket.request('leave');
    await until(() => viewer.events.length === 2);
    expect(viewer.events).toEqual(['hostJoined', 'hostLeft']);
    expect(first.connectionState).toBe('closed');

    await host.socket.request('join', { channelId: id, account: hostUser.account, token: tokens.get(hostUser), role: 'host' });
    await until(() => host.descriptions().length === 2);
    expect(viewer.events).toEqual(['hostJoined', 'hostLeft', 'hostJoined']);
    expect(FakePeerConnection.made).toHaveLength(2);

    await viewer.live.leave();
    await viewer.live.leave();
    expect(FakePeerConnection.made.map((pc) => pc.connectionState)).toEqual(['closed', 'closed']);
    await until(() => host.pushes.some((p) => p.type === 'peerLeft'));
    expect(viewer.events).toEqual(['hostJoined', 'hostLeft', 'hostJoined']);
    host.socket.close();
  });

  it('a leave right after watch is called joins nothing', async () => {
    const [hostUser, viewerUser] = users as [SeededUser, SeededUser];
    const id = channel();
    const host = await End.joined(hostUser, id, 'host');
    const viewer = adapter(viewerUser);
    const watching = viewer.live.watch(id, viewerUser.account);
    await viewer.live.leave();
    await expect(watching).rejects.toThrow('The live room was left before this finished');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakePeerConnection.made).toEqual([]);
    expect(host.pushes).toEqual([]);
    host.socket.close();
  });

  it('watching before the host arrives (it was in a private call): its arrival is hostJoined and an offer', async () => {
    const [hostUser, viewerUser] = users as [SeededUser, SeededUser];
    const id = channel();
    const viewer = adapter(viewerUser);
    await viewer.live.watch(id, viewerUser.account);
    expect(FakePeerConnection.made).toEqual([]);
    expect(viewer.events).toEqual([]);
    const host = await End.joined(hostUser, id, 'host');
    await until(() => host.descriptions().length === 1);
    expect(viewer.events).toEqual(['hostJoined']);
    host.socket.close();
    await until(() => viewer.events.length === 2);
    expect(viewer.events).toEqual(['hostJoined', 'hostLeft']);
  });

  it('connectionLost when the relay link drops, and when the connection to the host fails; nothing after it', async () => {
    const [hostUser, viewerUser] = users as [SeededUser, SeededUser];
    const id = channel();
    const host = await End.joined(hostUser, id, 'host');
    const viewer = adapter(viewerUser);
    await viewer.live.watch(id, viewerUser.account);
    await until(() => FakePeerConnection.made.length === 1);
    FakePeerConnection.made[0]!.become('disconnected');
    await until(() => viewer.events.length === 2);
    expect(viewer.events).toEqual(['hostJoined', 'connectionLost']);
    expect(FakePeerConnection.made[0]!.connectionState).toBe('closed');
    await until(() => host.pushes.some((p) => p.type === 'peerLeft'));

    await viewer.live.watch(id, viewerUser.account);
    await until(() => FakePeerConnection.made.length === 2);
    hub.server.app.realtime.dropConnections(viewerUser.account);
    await until(() => viewer.events.length === 4);
    expect(viewer.events).toEqual(['hostJoined', 'connectionLost', 'hostJoined', 'connectionLost']);
    host.socket.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(viewer.events).toEqual(['hostJoined', 'connectionLost', 'hostJoined', 'connectionLost']);
  });
});
