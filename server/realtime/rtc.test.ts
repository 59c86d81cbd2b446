/**
 * The WebRTC relay on `/realtime/rtc` over real sockets (server/realtime/rtc.ts): rtc tokens
 * of getAgoraRtmToken, two members per channel, who offers, relaying, and leaving by
 * `leave`, by a closed socket and by a second join of the same account; then live channels
 * (one host, many viewers, relays between the host and each viewer only, hostLeft/hostJoined).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type * as z from 'zod/mini';
import {
  HubCode, LIVE_AUDIENCE_LIMIT, RTC_POST_LIMIT, RealtimePath, type LiveRole, type RtcJoinResult, type RtcLiveJoinResult, type RtcPush,
} from '../../src/api/contract/realtime';
import { HubSocket, type WebSocketImpl } from '../../src/adapters/hub.socket';
import { createRtcService } from './rtc';
import { CallStatus } from '../../src/api/contract/call';
import { endpoints } from '../../src/api/contract';
import { startRealtimeServer, type RealtimeTestServer, type SeededUser } from './testing';
import { Conn } from './wire';

let hub: RealtimeTestServer;
let alice: SeededUser;
let bob: SeededUser;
let carol: SeededUser;
let dave: SeededUser;
let erin: SeededUser;
const tokens = new Map<SeededUser, string>();

beforeAll(async () => {
  hub = await startRealtimeServer({ users: 5 });
  [alice, bob, carol, dave, erin] = hub.users as [SeededUser, SeededUser, SeededUser, SeededUser, SeededUser];
  for (const user of hub.users) tokens.set(user, await hub.rtcTokenOf(user));
});
afterAll(() => hub.close());

/** A ringing call between the two on `channelId` (as createCall stores it): the relay admits its parties. */
const call = (channelId: string, caller: SeededUser, callee: SeededUser): string => {
  hub.storeCall(channelId, caller, callee);
  return channelId;
};
/** `host`'s live room on `channelId` (as beginLiveRoom stores it). */
const live = (channelId: string, host: SeededUser): string => {
  hub.storeLive(channelId, host);
  return channelId;
};

/** A socket on the rtc path that keeps what it was pushed. */
class Member {
  readonly pushes: RtcPush[] = [];
  dropped = false;
  readonly socket: HubSocket;

  constructor() {
    this.socket = new HubSocket({
      url: hub.url(RealtimePath.rtc),
      WebSocketImpl: WebSocket as unknown as WebSocketImpl,
      onPush: (push) => this.pushes.push(push as RtcPush),
      onDrop: () => {
        this.dropped = true;
      },
    });
  }

  static async joined(user: SeededUser, channelId: string): Promise<[Member, RtcJoinResult]> {
    const m = new Member();
    const result = await m.join(user, channelId);
    return [m, result];
  }

  async join(user: SeededUser, channelId: string, token = tokens.get(user)): Promise<RtcJoinResult> {
    await this.socket.ready;
    return this.socket.request<RtcJoinResult>('join', { channelId, account: user.account, token });
  }

  static async live(user: SeededUser, channelId: string, role: LiveRole): Promise<[Member, RtcLiveJoinResult]> {
    const m = new Member();
    return [m, await m.joinLive(user, channelId, role)];
  }

  async joinLive(user: SeededUser, channelId: string, role: LiveRole, token = tokens.get(user)): Promise<RtcLiveJoinResult> {
    await this.socket.ready;
    return this.socket.request<RtcLiveJoinResult>('join', { channelId, account: user.account, token, role });
  }

  async next<T extends RtcPush['type']>(type: T, from = 0): Promise<Extract<RtcPush, { type: T }>> {
    const deadline = Date.now() + 2000;
    for (;;) {
      const found = this.pushes.slice(from).find((p) => p.type === type);
      if (found) return found as Extract<RtcPush, { type: T }>;
      if (Date.now() > deadline) throw new Error(`No ${type}; pushes: ${JSON.stringify(this.pushes)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'ok', (e: { code?: number }) => e.code);

describe('[§7] rtc token', () => {
  it('joins with the rtcToken of getAgoraRtmToken only: not a wrong one, not another user\'s, not the rtm token, not an expired one', async () => {
    call('tok-1', alice, bob);
    call('tok-2', carol, alice);
    const m = new Member();
    expect(await codeOf(m.join(alice, 'tok-1', 'rtc_wrong'))).toBe(HubCode.tokenInvalid);
    expect(await codeOf(m.join(alice, 'tok-1', tokens.get(bob)))).toBe(HubCode.tokenInvalid);
    expect(await codeOf(m.join(alice, 'tok-1', await hub.rtmTokenOf(alice)))).toBe(HubCode.tokenInvalid);
    expect(await m.join(alice, 'tok-1')).toEqual({ channelId: 'tok-1', peers: [], waiting: [] });
    m.socket.close();

    const token = await hub.rtcTokenOf(carol);
    const { openDatabase } = await import('../db/database');
    const writer = openDatabase(hub.server.dbPath);
    writer.prepare('UPDATE agora_tokens SET expires_at = 1 WHERE token = ?').run(token);
    writer.close();
    const late = new Member();
    expect(await codeOf(late.join(carol, 'tok-2', token))).toBe(HubCode.tokenExpired);
    late.socket.close();
  });

  it('refuses a relay before a join, and bad arguments', async () => {
    const m = new Member();
    await m.socket.ready;
    expect(await codeOf(m.socket.request('relay', { to: bob.account, data: { sdp: 'x' } }))).toBe(HubCode.linkLost);
    expect(await codeOf(m.socket.request('join', { channelId: '', account: alice.account, token: 'x' }))).toBe(HubCode.badRequest);
    expect(await codeOf(m.socket.request('relay', { to: bob.account, data: 'offer' }))).toBe(HubCode.badRequest);
    m.socket.close();
  });
});

describe('two members', () => {
  it('the second to join finds the first (it offers); the first is told peerJoined; relay goes both ways', async () => {
    const [a, first] = await Member.joined(alice, call('call-1', alice, bob));
    expect(first).toEqual({ channelId: 'call-1', peers: [], waiting: [] });
    const [b, second] = await Member.joined(bob, 'call-1');
    expect(second).toEqual({ channelId: 'call-1', peers: [alice.account], waiting: [] });
    expect(await a.next('peerJoined')).toEqual({ type: 'peerJoined', channelId: 'call-1', account: bob.account });
    expect(b.pushes).toEqual([]);

    const offer = { kind: 'description', description: { type: 'offer', sdp: 'v=0 offer' } };
    expect(await b.socket.request('relay', { to: alice.account, data: offer })).toBeNull();
    expect(await a.next('relay')).toEqual({ type: 'relay', channelId: 'call-1', from: bob.account, data: offer });
    const answer = { kind: 'description', description: { type: 'answer', sdp: 'v=0 answer' } };
    await a.socket.request('relay', { to: bob.account, data: answer });
    expect(await b.next('relay')).toMatchObject({ from: alice.account, data: answer });

    expect(await codeOf(a.socket.request('relay', { to: carol.account, data: {} }))).toBe(HubCode.notFound);
    expect(await codeOf(a.socket.request('relay', { to: alice.account, data: {} }))).toBe(HubCode.notFound);
    expect(hub.server.app.realtime.connectionCount()[RealtimePath.rtc]).toBeGreaterThanOrEqual(2);
    a.socket.close();
    b.socket.close();
  });

  it('a third user is refused with a clear error, also once a party left; the party may come back', async () => {
    const [a] = await Member.joined(alice, call('call-2', alice, bob));
    const [b] = await Member.joined(bob, 'call-2');
    const c = new Member();
    const refused = await c.join(carol, 'call-2').catch((e: { code: number; message: string }) => e);
    expect(refused).toMatchObject({ code: HubCode.forbidden, message: "Only the call's two parties may join its channel" });

    await a.next('peerJoined');
    const seen = a.pushes.length;
    await b.socket.request('leave');
    expect(await a.next('peerLeft')).toEqual({ type: 'peerLeft', channelId: 'call-2', account: bob.account, reason: 'left' });
    expect(await codeOf(c.join(carol, 'call-2'))).toBe(HubCode.forbidden);
    expect(await b.join(bob, 'call-2')).toEqual({ channelId: 'call-2', peers: [alice.account], waiting: [] });
    expect(await a.next('peerJoined', seen)).toMatchObject({ account: bob.account });
    for (const m of [a, b, c]) m.socket.close();
  });

  it('one channel per socket; joining the same channel again is answered as before', async () => {
    const [a] = await Member.joined(alice, call('call-3', alice, bob));
    call('call-4', bob, alice);
    expect(await codeOf(a.join(alice, 'call-4'))).toBe(HubCode.forbidden);
    expect(await a.join(alice, 'call-3')).toEqual({ channelId: 'call-3', peers: [], waiting: [] });
    await a.socket.request('leave');
    expect(await a.join(alice, 'call-4')).toEqual({ channelId: 'call-4', peers: [], waiting: [] });
    a.socket.close();
  });
});

describe('posting ahead', () => {
  const offer = { kind: 'description', description: { type: 'offer', sdp: 'v=0 ahead' } };
  const candidate = (n: number) => ({ kind: 'candidate', candidate: { candidate: `candidate:${n}`, sdpMid: '0' } });

  it('what a member alone posts reaches the next joiner in its join answer, in order, once; a post after that is relayed', async () => {
    const [a] = await Member.joined(alice, call('post-1', alice, bob));
    expect(await a.socket.request('post', { data: offer })).toBeNull();
    await a.socket.request('post', { data: candidate(1) });
    await a.socket.request('post', { data: candidate(2) });
    const [b, joined] = await Member.joined(bob, 'post-1');
    expect(joined).toEqual({
      channelId: 'post-1',
      peers: [alice.account],
      waiting: [offer, candidate(1), candidate(2)].map((data) => ({ from: alice.account, data })),
    });
    expect(await a.next('peerJoined')).toMatchObject({ account: bob.account });
    // Handed over: nothing of it is pushed again, and a later post goes to the member there.
    await a.socket.request('post', { data: candidate(3) });
    expect(await b.next('relay')).toEqual({ type: 'relay', channelId: 'post-1', from: alice.account, data: candidate(3) });
    expect(b.pushes).toHaveLength(1);
    // Once handed over it is gone: a joiner after this one (the callee again) finds nothing waiting.
    await b.socket.request('leave');
    const [c, third] = await Member.joined(bob, 'post-1');
    expect(third.waiting).toEqual([]);
    for (const m of [a, b, c]) m.socket.close();
  });

  it('what a member posted goes when it leaves or its socket closes', async () => {
    const [a] = await Member.joined(alice, call('post-2', alice, bob));
    await a.socket.request('post', { data: offer });
    await a.socket.request('leave');
    const [b] = await Member.joined(bob, 'post-2');
    await b.socket.request('post', { data: candidate(1) });
    b.socket.close();
    await expect.poll(() => hub.server.app.realtime.connectionCount()[RealtimePath.rtc]).toBe(1);
    const [c, joined] = await Member.joined(alice, 'post-2');
    expect(joined).toEqual({ channelId: 'post-2', peers: [], waiting: [] });
    for (const m of [a, c]) m.socket.close();
  });

  it(`keeps at most ${RTC_POST_LIMIT} posts, refuses a post outside a call's channel, and bad arguments`, async () => {
    const outside = new Member();
    await outside.socket.ready;
    expect(await codeOf(outside.socket.request('post', { data: offer }))).toBe(HubCode.linkLost);
    expect(await codeOf(outside.socket.request('post', { data: 'offer' }))).toBe(HubCode.badRequest);
    outside.socket.close();

    const [a] = await Member.joined(alice, call('post-3', alice, bob));
    for (let n = 0; n < RTC_POST_LIMIT; n++) await a.socket.request('post', { data: candidate(n) });
    const refused = await a.socket.request('post', { data: candidate(RTC_POST_LIMIT) }).catch((e: { code: number; message: string }) => e);
    expect(refused).toMatchObject({ code: HubCode.forbidden, message: `At most ${RTC_POST_LIMIT} posts are kept for a member not yet here` });
    const [b, joined] = await Member.joined(bob, 'post-3');
    expect(joined.waiting.map((posted) => posted.data)).toEqual(Array.from({ length: RTC_POST_LIMIT }, (_, n) => candidate(n)));
    for (const m of [a, b]) m.socket.close();

    const [host] = await Member.live(carol, live('post-live', carol), 'host');
    expect(await codeOf(host.socket.request('post', { data: offer }))).toBe(HubCode.forbidden);
    host.socket.close();
  });
});

describe('leaving', () => {
  it('a closed socket leaves its channel: the other member is told peerLeft (dropped), and the channel is freed', async () => {
    const [a] = await Member.joined(alice, call('call-5', alice, bob));
    const [b] = await Member.joined(bob, 'call-5');
    b.socket.close();
    expect(await a.next('peerLeft')).toEqual({ type: 'peerLeft', channelId: 'call-5', account: bob.account, reason: 'dropped' });
    a.socket.close();
    await expect.poll(() => hub.server.app.realtime.connectionCount()[RealtimePath.rtc]).toBe(0);
    const [c, joined] = await Member.joined(bob, 'call-5');
    expect(joined.peers).toEqual([]);
    c.socket.close();
  });

  it('a cut network (the hub drops the account) is a drop for the other member', async () => {
    const [a] = await Member.joined(alice, call('call-6', alice, bob));
    const [b] = await Member.joined(bob, 'call-6');
    expect(hub.server.app.realtime.dropConnections(bob.account)).toBeGreaterThanOrEqual(1);
    expect(await a.next('peerLeft')).toMatchObject({ account: bob.account, reason: 'dropped' });
    await expect.poll(() => b.dropped).toBe(true);
    a.socket.close();
  });

  it('the same account joining from another socket takes the place of the older one', async () => {
    const [a] = await Member.joined(alice, call('call-7', alice, bob));
    const [b1] = await Member.joined(bob, 'call-7');
    await a.next('peerJoined');
    const seen = a.pushes.length;
    const [b2, again] = await Member.joined(bob, 'call-7');
    expect(again.peers).toEqual([alice.account]);
    expect(await b1.next('kicked')).toEqual({ type: 'kicked', channelId: 'call-7' });
    expect(await a.next('peerLeft', seen)).toMatchObject({ account: bob.account });
    expect(await a.next('peerJoined', seen)).toMatchObject({ account: bob.account });
    // The older socket is out of the channel: its relay is refused, its close tells nobody.
    expect(await codeOf(b1.socket.request('relay', { to: alice.account, data: {} }))).toBe(HubCode.linkLost);
    const before = a.pushes.length;
    b1.socket.close();
    await b2.socket.request('relay', { to: alice.account, data: { n: 1 } });
    await a.next('relay', before);
    expect(a.pushes.slice(before).map((p) => p.type)).toEqual(['relay']);
    a.socket.close();
    b2.socket.close();
  });
});

describe('live channels: one host, many viewers', () => {
  it('[§7] a live join takes the same rtc token as a call\'s', async () => {
    live('live-tok', alice);
    const m = new Member();
    expect(await codeOf(m.joinLive(alice, 'live-tok', 'host', 'rtc_wrong'))).toBe(HubCode.tokenInvalid);
    expect(await codeOf(m.joinLive(alice, 'live-tok', 'audience', tokens.get(bob)))).toBe(HubCode.tokenInvalid);
    expect(await codeOf(m.socket.request('join', { channelId: 'live-tok', account: alice.account, token: tokens.get(alice), role: 'speaker' })))
      .toBe(HubCode.badRequest);
    expect(await m.joinLive(alice, 'live-tok', 'host')).toEqual({ channelId: 'live-tok', role: 'host', host: alice.account });
    m.socket.close();
  });

  it('more than two members: viewers before the host find none and are pushed hostJoined; later viewers find the host; the host hears of no joins', async () => {
    const [b, early] = await Member.live(bob, live('live-1', alice), 'audience');
    expect(early).toEqual({ channelId: 'live-1', role: 'audience', host: null });
    const [c] = await Member.live(carol, 'live-1', 'audience');
    const [a, hosting] = await Member.live(alice, 'live-1', 'host');
    expect(hosting).toEqual({ channelId: 'live-1', role: 'host', host: alice.account });
    for (const viewer of [b, c]) expect(await viewer.next('hostJoined')).toEqual({ type: 'hostJoined', channelId: 'live-1', account: alice.account });
    const [d, late] = await Member.live(dave, 'live-1', 'audience');
    expect(late).toEqual({ channelId: 'live-1', role: 'audience', host: alice.account });
    const [e] = await Member.live(erin, 'live-1', 'audience');
    expect(hub.server.app.realtime.connectionCount()[RealtimePath.rtc]).toBeGreaterThanOrEqual(5);
    await a.socket.request('ping');
    expect(a.pushes).toEqual([]);
    // Viewers are never told about each other.
    expect(b.pushes.map((p) => p.type)).toEqual(['hostJoined']);
    expect(d.pushes).toEqual([]);
    for (const m of [a, b, c, d, e]) m.socket.close();
  });

  it('relays go between the host and each viewer, never from viewer to viewer', async () => {
    const [a] = await Member.live(alice, live('live-2', alice), 'host');
    const [b] = await Member.live(bob, 'live-2', 'audience');
    const [c] = await Member.live(carol, 'live-2', 'audience');
    const offer = { kind: 'description', description: { type: 'offer', sdp: 'v=0 recvonly' } };
    expect(await b.socket.request('relay', { to: alice.account, data: offer })).toBeNull();
    expect(await a.next('relay')).toEqual({ type: 'relay', channelId: 'live-2', from: bob.account, data: offer });
    const answer = { kind: 'description', description: { type: 'answer', sdp: 'v=0 sendonly' } };
    await a.socket.request('relay', { to: bob.account, data: answer });
    expect(await b.next('relay')).toEqual({ type: 'relay', channelId: 'live-2', from: alice.account, data: answer });
    await a.socket.request('relay', { to: carol.account, data: answer });
    expect(await c.next('relay')).toMatchObject({ from: alice.account });

    const refused = await b.socket.request('relay', { to: carol.account, data: offer }).catch((e: { code: number; message: string }) => e);
    expect(refused).toMatchObject({ code: HubCode.forbidden, message: 'In a live room a viewer relays to the host only' });
    expect(await codeOf(b.socket.request('relay', { to: dave.account, data: offer }))).toBe(HubCode.forbidden);
    expect(await codeOf(a.socket.request('relay', { to: dave.account, data: answer }))).toBe(HubCode.notFound);
    expect(c.pushes.filter((p) => p.type === 'relay')).toHaveLength(1);

    await a.socket.request('leave');
    expect(await codeOf(b.socket.request('relay', { to: alice.account, data: offer }))).toBe(HubCode.notFound);
    for (const m of [a, b, c]) m.socket.close();
  });

  it('the host leaving is hostLeft for every viewer (left, then dropped); its return is hostJoined; a viewer leaving is peerLeft for the host only', async () => {
    const [a] = await Member.live(alice, live('live-3', alice), 'host');
    const [b] = await Member.live(bob, 'live-3', 'audience');
    const [c] = await Member.live(carol, 'live-3', 'audience');
    await a.socket.request('leave');
    for (const viewer of [b, c]) {
      expect(await viewer.next('hostLeft')).toEqual({ type: 'hostLeft', channelId: 'live-3', account: alice.account, reason: 'left' });
    }
    expect(hub.server.app.realtime.connectionCount()[RealtimePath.rtc]).toBeGreaterThanOrEqual(3);
    expect(await a.joinLive(alice, 'live-3', 'host')).toEqual({ channelId: 'live-3', role: 'host', host: alice.account });
    for (const viewer of [b, c]) expect(await viewer.next('hostJoined')).toMatchObject({ account: alice.account });

    const seenByC = c.pushes.length;
    await b.socket.request('leave');
    expect(await a.next('peerLeft')).toEqual({ type: 'peerLeft', channelId: 'live-3', account: bob.account, reason: 'left' });
    const seenByA = a.pushes.length;
    c.socket.close();
    expect(await a.next('peerLeft', seenByA)).toMatchObject({ account: carol.account, reason: 'dropped' });
    expect(c.pushes.length).toBe(seenByC);

    const [d] = await Member.live(dave, 'live-3', 'audience');
    a.socket.close();
    expect(await d.next('hostLeft')).toMatchObject({ account: alice.account, reason: 'dropped' });
    expect(b.pushes.map((p) => p.type)).toEqual(['hostLeft', 'hostJoined']);
    d.socket.close();
    b.socket.close();
  });


  it('the host joining again from another socket takes its place: kicked, then hostLeft and hostJoined for the viewers', async () => {
    const [a1] = await Member.live(alice, live('live-5', alice), 'host');
    const [b] = await Member.live(bob, 'live-5', 'audience');
    const [a2, again] = await Member.live(alice, 'live-5', 'host');
    expect(again.host).toBe(alice.account);
    expect(await a1.next('kicked')).toEqual({ type: 'kicked', channelId: 'live-5' });
    await b.next('hostJoined');
    expect(b.pushes.map((p) => p.type)).toEqual(['hostLeft', 'hostJoined']);
    expect(await codeOf(a1.socket.request('relay', { to: bob.account, data: {} }))).toBe(HubCode.linkLost);
    await a2.socket.request('relay', { to: bob.account, data: { n: 1 } });
    expect(await b.next('relay')).toMatchObject({ from: alice.account });
    for (const m of [a1, a2, b]) m.socket.close();
  });
});

describe('admission: the database says who belongs in a channel', () => {
  const refusal = (promise: Promise<unknown>) => promise.then(() => 'admitted', (e: { code: number; message: string }) => ({ code: e.code, message: e.message }));
  const forbidden = (message: string) => ({ code: HubCode.forbidden, message });

  it('nobody but its host publishes in a live room: an intruder as host is refused before and after her, and new viewers find the real host', async () => {
    const channelId = live('adm-live-1', alice);
    const intruder = new Member();
    expect(await refusal(intruder.joinLive(bob, channelId, 'host'))).toEqual(forbidden('Only the host of this live room may publish in it'));
    const [a, hosting] = await Member.live(alice, channelId, 'host');
    expect(hosting.host).toBe(alice.account);
    expect(await refusal(intruder.joinLive(bob, channelId, 'host'))).toEqual(forbidden('Only the host of this live room may publish in it'));
    const [viewer, watching] = await Member.live(carol, channelId, 'audience');
    expect(watching.host).toBe(alice.account);
    for (const m of [a, intruder, viewer]) m.socket.close();
  });

  it('nobody holds a live channel against its host: not as audience first, not as a call', async () => {
    const channelId = live('adm-live-2', alice);
    const [early] = await Member.live(bob, channelId, 'audience');
    const squatter = new Member();
    expect(await refusal(squatter.join(carol, channelId))).toEqual(forbidden('No call has this channel'));
    const [a, hosting] = await Member.live(alice, channelId, 'host');
    expect(hosting.host).toBe(alice.account);
    expect(await early.next('hostJoined')).toMatchObject({ account: alice.account });
    for (const m of [a, early, squatter]) m.socket.close();
  });

  it('an ended live admits nobody, its host neither; a channel no live room has is refused', async () => {
    const channelId = live('adm-live-3', alice);
    hub.storeLive(channelId, alice, false);
    const m = new Member();
    expect(await refusal(m.joinLive(bob, channelId, 'audience'))).toEqual(forbidden('This live has ended'));
    expect(await refusal(m.joinLive(alice, channelId, 'host'))).toEqual(forbidden('This live has ended'));
    expect(await refusal(m.joinLive(alice, 'adm-nowhere', 'host'))).toEqual(forbidden('No live room has this channel'));
    m.socket.close();
  });

  it('a call\'s channel admits its two parties only, while it rings or is in progress', async () => {
    const channelId = call('adm-call-1', alice, bob);
    const m = new Member();
    expect(await refusal(m.join(carol, channelId))).toEqual(forbidden("Only the call's two parties may join its channel"));
    expect(await refusal(m.joinLive(carol, channelId, 'audience'))).toEqual(forbidden('No live room has this channel'));
    expect(await refusal(m.join(carol, 'adm-no-call'))).toEqual(forbidden('No call has this channel'));
    hub.storeCall(channelId, alice, bob, CallStatus.inProgress);
    const [a] = await Member.joined(alice, channelId);
    hub.storeCall(channelId, alice, bob, CallStatus.hungUp);
    expect(await refusal(m.join(bob, channelId))).toEqual(forbidden('This call has ended'));
    for (const x of [a, m]) x.socket.close();
  });
});

describe('admission by the endpoints\' own calls and lives', () => {
  let world: RealtimeTestServer;
  let host: SeededUser;
  let user: SeededUser;
  let stranger: SeededUser;
  beforeAll(async () => {
    world = await startRealtimeServer({ seed: { hosts: 1, users: 2 } });
    [host, user, stranger] = world.users as [SeededUser, SeededUser, SeededUser];
  });
  afterAll(() => world.close());

  const join = async (who: SeededUser, channelId: string, role?: LiveRole) => {
    const socket = new HubSocket({ url: world.url(RealtimePath.rtc), WebSocketImpl: WebSocket as unknown as WebSocketImpl, onPush: () => undefined, onDrop: () => undefined });
    await socket.ready;
    const token = await world.rtcTokenOf(who);
    const answer = await socket.request('join', { channelId, account: who.account, token, ...(role ? { role } : {}) }).then(() => 'ok', (e: { code: number }) => e.code);
    socket.close();
    return answer;
  };

  it('a live begun by beginLiveRoom: its host publishes, anyone watches, nobody else publishes; endLiveRoom closes it', async () => {
    const hostSession = await world.sessionOf(host);
    const begun = await world.server.call(endpoints.beginLiveRoom, { title: 'Evening', privateCallOpen: true }, { token: hostSession });
    const channelId = begun.data!.agoraChannelId;
    expect(await join(user, channelId, 'host')).toBe(HubCode.forbidden);
    expect(await join(host, channelId, 'host')).toBe('ok');
    expect(await join(user, channelId, 'audience')).toBe('ok');
    await world.server.call(endpoints.endLiveRoom, {}, { token: hostSession });
    expect(await join(user, channelId, 'audience')).toBe(HubCode.forbidden);
  });

  it('a call made by createCall: its two parties join while it is open, a stranger never; endCall closes it', async () => {
    // The host is reachable when her signalling is logged in.
    const signal = new HubSocket({ url: world.url(RealtimePath.signal), WebSocketImpl: WebSocket as unknown as WebSocketImpl, onPush: () => undefined, onDrop: () => undefined });
    await signal.ready;
    await signal.request('login', { account: host.account, token: await world.rtmTokenOf(host) });
    const userSession = await world.sessionOf(user);
    // One intent, one key (money requests carry one; the relay does not care).
    const request = { beCallUserId: host.userId, callType: 0, idempotencyKey: randomUUID() } as z.input<typeof endpoints.createCall.request>;
    const created = await world.server.call(endpoints.createCall, request, { token: userSession });
    expect(created.code).toBe('0000');
    const { channelId } = created.data!;
    expect(await join(stranger, channelId)).toBe(HubCode.forbidden);
    expect(await join(user, channelId)).toBe('ok');
    expect(await join(host, channelId)).toBe('ok');
    await world.server.call(endpoints.endCall, { channelId, hangupReason: 1 }, { token: userSession });
    expect(await join(user, channelId)).toBe(HubCode.forbidden);
    signal.close();
  });
});

describe('live audience limit', () => {
  /** A hub socket that records what it is pushed, without a network. */
  function conn(): { conn: Conn; pushes: RtcPush[] } {
    const pushes: RtcPush[] = [];
    const ws = {
      readyState: 1, OPEN: 1, CLOSED: 3, bufferedAmount: 0,
      send: (frame: string) => pushes.push((JSON.parse(frame) as { push: RtcPush }).push),
      close: () => undefined, terminate: () => undefined,
    };
    return { conn: new Conn(RealtimePath.rtc, ws as unknown as WebSocket), pushes };
  }

  it(`[§9 audience query 500] a live room holds its host and ${LIVE_AUDIENCE_LIMIT} viewers; one more is refused until a viewer leaves`, () => {
    // Every channel a live room of whoever hosts it: this is about the limit.
    const channels = { call: () => undefined, live: () => ({ host: 'host', live: true }) };
    const service = createRtcService({ tokens: { checkRtc: () => ({ ok: true, userId: 1, session: 'session-1' }) }, channels });
    const ctx = { afterReply: (fn: () => void) => fn() };
    const join = (c: Conn, account: string, role: LiveRole) =>
      service.ops.join!.run(c, { channelId: 'big', account, token: 't', role }, ctx);
    const viewers = Array.from({ length: LIVE_AUDIENCE_LIMIT }, (_, i) => {
      const v = conn();
      join(v.conn, `viewer-${i}`, 'audience');
      return v;
    });
    const host = conn();
    expect(join(host.conn, 'host', 'host')).toEqual({ channelId: 'big', role: 'host', host: 'host' });
    expect(viewers.every((v) => v.pushes.length === 1 && v.pushes[0]?.type === 'hostJoined')).toBe(true);
    expect(() => join(conn().conn, 'one-more', 'audience')).toThrow(`The live room is full: at most ${LIVE_AUDIENCE_LIMIT} viewers`);
    service.ops.leave!.run(viewers[0]!.conn, {}, ctx);
    expect(host.pushes).toEqual([{ type: 'peerLeft', channelId: 'big', account: 'viewer-0', reason: 'left' }]);
    expect(join(conn().conn, 'one-more', 'audience')).toMatchObject({ host: 'host' });
    expect(service.members('big')).toHaveLength(LIVE_AUDIENCE_LIMIT + 1);
  });
});
