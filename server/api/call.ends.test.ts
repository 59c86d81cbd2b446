/**
 * Who ended a call (src/api/contract/call.ts "Who ended a call"): the authenticated party whose
 * end reached the server first, its end signal through the hub or its endCall; never the
 * hangupReason an app claims. The races are the apps' real ones: the party who taps tells the
 * peer first (its signal), and the peer's app reports the end (reason 2) before the tapper's does.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AttachType, CallStateType, TEXT_REFUSED } from '../../machines/system-messages/system-messages';
import { SignalAction } from '../../machines/ports/signalling.port';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { CallStatus, EndCause, HangupReason, missedCallText } from '../../src/api/contract/call';
import { callWorld, noticesOf, type HubSocket } from '../testing/calls';

const { createCall, joinCall, endCall, callRecordDetail } = endpoints;

const world = callWorld({
  seed: { hosts: 4, users: 4 },
  signIn: ['host1', 'host2', 'host3', 'host4', 'user1', 'user2'],
  present: ['host1', 'host2', 'host3', 'host4', 'user1'],
});
const { p } = world;
const as = (name: string) => ({ token: p[name]!.token });
const id = (name: string) => p[name]!.userId;
const callRow = (channelId: string) => world.db.prepare<[string], {
  status: number; end_cause: string | null; hangup_reason: number | null; ended_by: number | null;
}>('SELECT status, end_cause, hangup_reason, ended_by FROM calls WHERE channel_id = ?').get(channelId)!;

async function place(caller: string, callee: string): Promise<string> {
  const res = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id(callee), callType: 0 }, as(caller));
  expect(res.code, res.message).toBe(ResultCode.success);
  return res.data!.channelId;
}
const join = async (callee: string, channelId: string) =>
  expect((await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as(callee))).code).toBe(ResultCode.success);
const endCallAs = async (who: string, channelId: string, hangupReason: 1 | 2 | 6) =>
  expect((await world.server.call(endCall, { channelId, hangupReason }, as(who))).code).toBe(ResultCode.success);
const send = (socket: HubSocket, to: string, action: number, channelId: string, payload?: Record<string, unknown>) =>
  socket.call('send', { to: p[to]!.yxAccid, action, channelId, ...(payload ? { payload } : {}) });
/** The record of the call as `who` reads it. */
const recordOf = async (who: string, channelId: string) =>
  (await world.server.call(callRecordDetail, { searchValue: channelId }, as(who))).data!;

/** Both apps logged in to signalling, as they are while signed in. */
async function signalling(...names: string[]): Promise<Record<string, HubSocket>> {
  const out: Record<string, HubSocket> = {};
  for (const name of names) out[name] = await world.people.signal(p[name]!);
  return out;
}

describe('[§4] who ended a call: the first end the server hears', () => {
  it('a caller who cancels is the one who ended it, though the callee\'s app reports the end first (record [Cancelled], not [rejected])', async () => {
    const s = await signalling('user1', 'host1');
    const channelId = await place('user1', 'host1');
    await send(s.user1!, 'host1', SignalAction.videoCall, channelId);
    // The caller taps Cancel: its app tells the host first; the host's app ends at once (reason 2), before the caller's endCall.
    await send(s.user1!, 'host1', SignalAction.cancel, channelId);
    expect(s.host1!.pushes.some((push) => (push.signal as { action?: number })?.action === SignalAction.cancel)).toBe(true);
    await endCallAs('host1', channelId, HangupReason.remote);
    await endCallAs('user1', channelId, HangupReason.local);
    expect(callRow(channelId)).toEqual({
      status: CallStatus.cancel, end_cause: EndCause.cancel, hangup_reason: HangupReason.local, ended_by: id('user1'),
    });
    // No refusal told to the caller.
    expect(noticesOf(world.db, p.user1!.yxAccid, AttachType.callState).filter((n) => n.content.channelId === channelId)).toEqual([]);
    // Read by each party: 1 for the one who ended it, 2 for the other.
    expect(await recordOf('user1', channelId)).toMatchObject({ endCause: EndCause.cancel, hangupReason: HangupReason.local });
    expect(await recordOf('host1', channelId)).toMatchObject({ endCause: EndCause.cancel, hangupReason: HangupReason.remote });
  });

  it('a hang-up is the tapper\'s, with reason 1, or 6 when its signal says weak network; the peer\'s reason 2 changes nothing', async () => {
    const s = await signalling('user2', 'host2');
    const byHost = await place('user2', 'host2');
    await join('host2', byHost);
    await send(s.host2!, 'user2', SignalAction.hangup, byHost);
    await endCallAs('user2', byHost, HangupReason.remote);
    await endCallAs('host2', byHost, HangupReason.local);
    expect(callRow(byHost)).toEqual({
      status: CallStatus.hungUp, end_cause: EndCause.hangup, hangup_reason: HangupReason.local, ended_by: id('host2'),
    });
    expect(await recordOf('user2', byHost)).toMatchObject({ hangupReason: HangupReason.remote });
    expect(await recordOf('host2', byHost)).toMatchObject({ hangupReason: HangupReason.local });

    const weak = await place('user2', 'host2');
    await join('host2', weak);
    await send(s.user2!, 'host2', SignalAction.hangup, weak, { reason: HangupReason.weakNetwork });
    await endCallAs('host2', weak, HangupReason.remote);
    expect(callRow(weak)).toMatchObject({ end_cause: EndCause.hangup, hangup_reason: HangupReason.weakNetwork, ended_by: id('user2') });
    expect(await recordOf('host2', weak)).toMatchObject({ hangupReason: HangupReason.weakNetwork });
  });

  it('a reject signal is the callee\'s refusal (-3 type 1 to the caller), or busy or unavailable when it says so (no refusal told)', async () => {
    const s = await signalling('user2', 'host3');
    const ends: Record<string, { payload?: Record<string, unknown>; cause: string; refused: boolean }> = {
      refused: { cause: EndCause.reject, refused: true },
      busy: { payload: { busy: true }, cause: EndCause.busy, refused: false },
      unavailable: { payload: { unavailable: true }, cause: EndCause.unavailable, refused: false },
    };
    for (const [name, { payload, cause, refused }] of Object.entries(ends)) {
      const channelId = await place('user2', 'host3');
      await send(s.host3!, 'user2', SignalAction.reject, channelId, payload);
      await endCallAs('user2', channelId, HangupReason.remote);
      expect(callRow(channelId), name).toMatchObject({ status: CallStatus.cancel, end_cause: cause, ended_by: id('host3') });
      const told = noticesOf(world.db, p.user2!.yxAccid, AttachType.callState).filter((n) => n.content.channelId === channelId);
      expect(told.map((n) => n.content), name).toEqual(refused ? [expect.objectContaining({ type: CallStateType.refused, content: TEXT_REFUSED })] : []);
    }
  });

  it('[§8 the user is currently unavailable] a ring that finds no signalling connection of the callee ends the call as one she missed, and she is told', async () => {
    // host4's app is open (presence) but its signalling is not connected.
    const s = await signalling('user1');
    const channelId = await place('user1', 'host4');
    await expect(send(s.user1!, 'host4', SignalAction.videoCall, channelId)).rejects.toThrow('The peer is not connected');
    expect(callRow(channelId)).toEqual({ status: CallStatus.cancel, end_cause: EndCause.unavailable, hangup_reason: null, ended_by: null });
    // The caller's own end that follows changes nothing.
    await endCallAs('user1', channelId, HangupReason.local);
    expect(callRow(channelId)).toMatchObject({ end_cause: EndCause.unavailable, ended_by: null });
    const told = noticesOf(world.db, p.host4!.yxAccid, AttachType.callState).filter((n) => n.content.channelId === channelId);
    expect(told.map((n) => n.content.type)).toEqual([CallStateType.targetChannel, CallStateType.warning]);
    const nick = world.db.prepare<[number], string>('SELECT nickname FROM users WHERE id = ?').pluck().get(id('user1'))!;
    expect(told[1]!.content).toMatchObject({ content: missedCallText(nick), endCause: EndCause.unavailable });
    expect(noticesOf(world.db, p.user1!.yxAccid, AttachType.callState).filter((n) => n.content.channelId === channelId)).toEqual([]);
  });

  it('an app that says the other side ended it, before that side did, ends it as nobody\'s (dropped, weak network)', async () => {
    const channelId = await place('user1', 'host1');
    await join('host1', channelId);
    await endCallAs('user1', channelId, HangupReason.remote);
    expect(callRow(channelId)).toEqual({
      status: CallStatus.hungUp, end_cause: EndCause.dropped, hangup_reason: HangupReason.weakNetwork, ended_by: null,
    });
    await endCallAs('host1', channelId, HangupReason.local);
    expect(callRow(channelId)).toMatchObject({ ended_by: null });
    expect(await recordOf('host1', channelId)).toMatchObject({ hangupReason: HangupReason.weakNetwork });
  });
});
