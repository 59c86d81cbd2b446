/**
 * The WebRTC relay on `/realtime/rtc` over real sockets (server/realtime/rtc.ts): rtc tokens
 * of getAgoraRtmToken, two members per channel, who offers, relaying, and leaving by
 * `leave`, by a closed socket and by a second join of the same account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HubCode, RealtimePath, type RtcJoinResult, type RtcPush } from '../../src/api/contract/realtime';
import { HubSocket, type WebSocketImpl } from '../../src/adapters/hub.socket';
import { startRealtimeServer, type RealtimeTestServer, type SeededUser } from './testing';

let hub: RealtimeTestServer;
let alice: SeededUser;
let bob: SeededUser;
let carol: SeededUser;
const tokens = new Map<SeededUser, string>();

beforeAll(async () => {
  hub = await startRealtimeServer({ users: 3 });
  [alice, bob, carol] = hub.users as [SeededUser, SeededUser, SeededUser];
  for (const user of hub.users) tokens.set(user, await hub.rtcTokenOf(user));
});
afterAll(() => hub.close());

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
    const m = new Member();
    expect(await codeOf(m.join(alice, 'tok-1', 'rtc_wrong'))).toBe(HubCode.tokenInvalid);
    expect(await codeOf(m.join(alice, 'tok-1', tokens.get(bob)))).toBe(HubCode.tokenInvalid);
    expect(await codeOf(m.join(alice, 'tok-1', await hub.rtmTokenOf(alice)))).toBe(HubCode.tokenInvalid);
    expect(await m.join(alice, 'tok-1')).toEqual({ channelId: 'tok-1', peers: [] });
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
    const [a, first] = await Member.joined(alice, 'call-1');
    expect(first).toEqual({ channelId: 'call-1', peers: [] });
    const [b, second] = await Member.joined(bob, 'call-1');
    expect(second).toEqual({ channelId: 'call-1', peers: [alice.account] });
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

  it('a third member is refused with a clear error; once one leaves, another may join', async () => {
    const [a] = await Member.joined(alice, 'call-2');
    const [b] = await Member.joined(bob, 'call-2');
    const c = new Member();
    const refused = await c.join(carol, 'call-2').catch((e: { code: number; message: string }) => e);
    expect(refused).toMatchObject({ code: HubCode.forbidden, message: 'The channel is full: a call has at most 2 members' });

    await a.next('peerJoined');
    const seen = a.pushes.length;
    await b.socket.request('leave');
    expect(await a.next('peerLeft')).toEqual({ type: 'peerLeft', channelId: 'call-2', account: bob.account, reason: 'left' });
    expect(await c.join(carol, 'call-2')).toEqual({ channelId: 'call-2', peers: [alice.account] });
    expect(await a.next('peerJoined', seen)).toMatchObject({ account: carol.account });
    for (const m of [a, b, c]) m.socket.close();
  });

  it('one channel per socket; joining the same channel again is answered as before', async () => {
    const [a] = await Member.joined(alice, 'call-3');
    expect(await codeOf(a.join(alice, 'call-4'))).toBe(HubCode.forbidden);
    expect(await a.join(alice, 'call-3')).toEqual({ channelId: 'call-3', peers: [] });
    await a.socket.request('leave');
    expect(await a.join(alice, 'call-4')).toEqual({ channelId: 'call-4', peers: [] });
    a.socket.close();
  });
});

describe('leaving', () => {
  it('a closed socket leaves its channel: the other member is told peerLeft (dropped), and the channel is freed', async () => {
    const [a] = await Member.joined(alice, 'call-5');
    const [b] = await Member.joined(bob, 'call-5');
    b.socket.close();
    expect(await a.next('peerLeft')).toEqual({ type: 'peerLeft', channelId: 'call-5', account: bob.account, reason: 'dropped' });
    a.socket.close();
    await expect.poll(() => hub.server.app.realtime.connectionCount()[RealtimePath.rtc]).toBe(0);
    const [c, joined] = await Member.joined(carol, 'call-5');
    expect(joined.peers).toEqual([]);
    c.socket.close();
  });

  it('a cut network (the hub drops the account) is a drop for the other member', async () => {
    const [a] = await Member.joined(alice, 'call-6');
    const [b] = await Member.joined(bob, 'call-6');
    expect(hub.server.app.realtime.dropConnections(bob.account)).toBeGreaterThanOrEqual(1);
    expect(await a.next('peerLeft')).toMatchObject({ account: bob.account, reason: 'dropped' });
    await expect.poll(() => b.dropped).toBe(true);
    a.socket.close();
  });

  it('the same account joining from another socket takes the place of the older one', async () => {
    const [a] = await Member.joined(alice, 'call-7');
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
