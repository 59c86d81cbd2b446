import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PresenceCode } from '../../machines/ports/presence.port';
import { AttachType, TEXT_REFUSED } from '../../machines/system-messages/system-messages';
import { MESSAGE_DIAMOND_NOT_ENOUGH, MESSAGE_NO_MATCH_USER, ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import {
  CallStatus, EndCause, TEXT_CALL_BUSY, TEXT_CALL_ENDED, TEXT_CALL_NOT_FOUND, TEXT_CALL_PAIR, TEXT_CALL_SELF,
  TEXT_CALL_UNAVAILABLE, TEXT_HOST_CANNOT_CALL, TEXT_NOT_CALLEE,
} from '../../src/api/contract/call';
import { callWorld, noticesOf } from '../testing/calls';
import { SYSTEM_SENDER_ACCID } from '../../machines/system-messages/system-sender';
import { TEXT_INVALID_REQUEST, TEXT_SESSION_EXPIRED } from './transport';

const { createCall, joinCall, callTerms, endCall, callRate, callRecordList, callRecordDetail, blockUser } = endpoints;

const world = callWorld({
  // Periods of a minute: within these tests only the first period (charged on joining) is taken.
  seed: { hosts: 6, users: 8 },
  signIn: ['host1', 'host2', 'host3', 'host4', 'host5', 'host6', 'user1', 'user2', 'user3', 'user4', 'user5', 'user6', 'user7', 'user8'],
  // Hosts 1–5 and user1 have the app open; host6 (level 0) too.
  present: ['host1', 'host2', 'host3', 'host4', 'host5', 'host6', 'user1'],
});
const { p } = world;

const as = (name: string) => ({ token: p[name]!.token });
const id = (name: string) => p[name]!.userId;
const wallet = (userId: number) =>
  world.db.prepare<[number], { diamonds: number; income: number }>('SELECT diamonds, income FROM wallets WHERE user_id = ?').get(userId)
  ?? { diamonds: 0, income: 0 };
const callRow = (channelId: string) => world.db.prepare<[string], {
  id: number; status: number; payer_id: number; host_id: number; price: number; list_price: number; end_cause: string | null;
  hangup_reason: number | null; ended_by: number | null; periods: number; call_income: number; connected_at: number | null;
}>('SELECT * FROM calls WHERE channel_id = ?').get(channelId)!;
const parties = (callId: number) => world.db.prepare<[number], number>('SELECT user_id FROM call_parties WHERE call_id = ? ORDER BY user_id').pluck().all(callId);

async function place(caller: string, callee: string, callType: 0 | 10 = 0): Promise<string> {
  const res = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id(callee), callType }, as(caller));
  expect(res.code, res.message).toBe(ResultCode.success);
  return res.data!.channelId;
}
const hangUp = async (who: string, channelId: string, hangupReason: 1 | 2 | 6 = 1) =>
  expect((await world.server.call(endCall, { channelId, hangupReason }, as(who))).code).toBe(ResultCode.success);

describe('[§7] /api/call/record/v2/createCall', () => {
  it('answers the §3 Call info of a reachable host, stores a ringing call and tells the host the channel (-3 type 0)', async () => {
    const res = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host1'), callType: 0 }, as('user1'));
    expect(res.code).toBe(ResultCode.success);
    const channelId = res.data!.channelId;
    expect(channelId).toMatch(/^[0-9a-f]{32}$/);
    expect(res.data).toEqual({
      channelId, yxAccid: p.host1!.yxAccid, videoPrice: 30, countryCode: 'US', nickname: 'Sofia', age: 26,
      icon: '/avatars/host1.svg', userType: 2, followed: true, levelName: 'Lv.1',
      callUserId: id('host1'), callType: 0, listPrice: 30, billingPeriodMs: 60_000, ringTimeoutMs: 30_000, balance: 1000,
    });
    const row = callRow(channelId);
    expect(row).toMatchObject({ status: CallStatus.calling, payer_id: id('user1'), host_id: id('host1'), price: 30, periods: 0 });
    expect(parties(row.id)).toEqual([id('host1'), id('user1')].sort());
    expect(noticesOf(world.db, p.host1!.yxAccid, AttachType.callState).at(-1)).toMatchObject({
      from_accid: SYSTEM_SENDER_ACCID, content: { attachType: -3, type: 0, channelId, callType: 0, fromUserId: id('user1') },
    });
    await hangUp('user1', channelId);
  });

  it('[§9] rings as long as the app config callTimeOutNum says (seconds), 30 s when it is unset or not sane', async () => {
    const ringOf = async () => {
      const res = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host2'), callType: 0 }, as('user1'));
      expect(res.code, res.message).toBe(ResultCode.success);
      await hangUp('user1', res.data!.channelId);
      return res.data!.ringTimeoutMs;
    };
    const set = (value: string | null) => (value === null
      ? world.rw.prepare("DELETE FROM app_config WHERE key = 'callTimeOutNum'").run()
      : world.rw.prepare("INSERT INTO app_config (key, value) VALUES ('callTimeOutNum', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(value));
    try {
      set('45');
      expect(await ringOf()).toBe(45_000);
      set('2');
      expect(await ringOf()).toBe(30_000);
      set('ten');
      expect(await ringOf()).toBe(30_000);
    } finally {
      set(null);
    }
    expect(await ringOf()).toBe(30_000);
  });

  it('[§8 1992] refuses a host who is ringing or in a call, and a host live without private calls', async () => {
    const channelId = await place('user1', 'host2');
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host2'), callType: 0 }, as('user5')))
      .toEqual({ code: '1992', message: TEXT_CALL_BUSY });
    await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as('host2'));
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host2'), callType: 10 }, as('user5')))
      .toEqual({ code: '1992', message: TEXT_CALL_BUSY });
    await hangUp('host2', channelId);
    expect((await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host2'), callType: 0 }, as('user5'))).code).toBe(ResultCode.success);

    world.rw.prepare(`INSERT INTO live_rooms (user_id, agora_channel_id, yx_room_id, state, private_call_open, started_at)
      VALUES (?, 'live-host5', 'room-host5', 0, 0, ?)`).run(id('host5'), Date.now());
    try {
      expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host5'), callType: 0 }, as('user6')))
        .toEqual({ code: '1992', message: TEXT_CALL_BUSY });
    } finally {
      world.rw.prepare("DELETE FROM live_rooms WHERE agora_channel_id = 'live-host5'").run();
    }
    await hangUp('user5', (await world.server.call(callRecordList, { currentPage: 1, pageSize: 1 }, as('user5'))).data!.list[0]!.channelId);
  });

  it('[§8 2001] refuses a host whose app is closed or hidden, and one who blocked the caller; signalling alone is enough', async () => {
    const host = await world.people.signIn('host1@example.com');
    const unavailable = { code: '2001', message: TEXT_CALL_UNAVAILABLE };
    // user2 is signed in only: no presence, no signalling.
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('user2'), callType: 0 }, as('host1'))).toEqual(unavailable);
    const hidden = await world.people.presence(p.user2!, PresenceCode.background);
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('user2'), callType: 0 }, as('host1'))).toEqual(unavailable);
    await hidden.call('status', { code: PresenceCode.offline });
    const signal = await world.people.signal(p.user3!);
    try {
      const channelId = await place('host1', 'user3');
      await hangUp('host1', channelId);
    } finally {
      await signal.close();
    }
    expect((await world.server.call(blockUser, { beBlockUserId: id('user1') }, { token: host.token })).code).toBe(ResultCode.success);
    // host4 did not block anyone; host1 blocked user1 (with another session of host1).
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host1'), callType: 0 }, as('user1'))).toEqual(unavailable);
    await world.server.call(endpoints.removeBlockUser, { beBlockUserId: id('user1') }, { token: host.token });
  });

  it('[§8 1080] refuses a caller who cannot pay one period; a VIP pays the discounted price (§6)', async () => {
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host1'), callType: 0 }, as('user8')))
      .toEqual({ code: '1080', message: MESSAGE_DIAMOND_NOT_ENOUGH });
    // user4 is a VIP with no diamonds: 80 % of 50 is still more than nothing.
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host3'), callType: 0 }, as('user4')))
      .toEqual({ code: '1080', message: MESSAGE_DIAMOND_NOT_ENOUGH });
    // user7 (50 diamonds) can pay exactly one period of host3 (50).
    const exact = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host3'), callType: 0 }, as('user7'));
    expect(exact.data).toMatchObject({ videoPrice: 50, listPrice: 50 });
    await hangUp('user7', exact.data!.channelId);
    // user2 is a VIP: floor(50 × 80 / 100) = 40.
    const vip = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host3'), callType: 10 }, as('user2'));
    expect(vip.data).toMatchObject({ videoPrice: 40, listPrice: 50, callType: 10 });
    // A price that does not divide: 33 in full, floor(33 × 80 / 100) = 26 for a VIP.
    world.rw.prepare('UPDATE users SET video_price = 33 WHERE id = ?').run(id('host4'));
    const floored = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host4'), callType: 0 }, as('user5'));
    expect(floored.data).toMatchObject({ videoPrice: 33, listPrice: 33 });
    await hangUp('user5', floored.data!.channelId);
    await hangUp('user2', vip.data!.channelId);
    const vipFloor = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host4'), callType: 0 }, as('user2'));
    expect(vipFloor.data).toMatchObject({ videoPrice: 26, listPrice: 33 });
    await hangUp('user2', vipFloor.data!.channelId);
    world.rw.prepare('UPDATE users SET video_price = 60 WHERE id = ?').run(id('host4'));
  });

  it('[§5] lets a host whose level is in achor_hide_button call a user, who pays; refuses other pairs', async () => {
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host6'), callType: 0 }, as('user1')))
      .toMatchObject({ code: ResultCode.success });
    await hangUp('user1', (await world.server.call(callRecordList, { currentPage: 1, pageSize: 1 }, as('user1'))).data!.list[0]!.channelId);
    // host6 is level 0, outside '1,2,3,4,5'.
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('user1'), callType: 0 }, as('host6')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_HOST_CANNOT_CALL });
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('user2'), callType: 0 }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_CALL_PAIR });
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host2'), callType: 0 }, as('host1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_CALL_PAIR });
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('user1'), callType: 0 }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_CALL_SELF });
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: 999_999, callType: 0 }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: MESSAGE_NO_MATCH_USER });

    const before = wallet(id('user1')).diamonds;
    const placed = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('user1'), callType: 0 }, as('host2'));
    // The host is not told the user's balance; only a paying caller hears their own.
    expect(placed.data).not.toHaveProperty('balance');
    const channelId = placed.data!.channelId;
    expect(callRow(channelId)).toMatchObject({ payer_id: id('user1'), host_id: id('host2'), price: 40 });
    expect((await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as('user1'))).code).toBe(ResultCode.success);
    expect(wallet(id('user1')).diamonds).toBe(before - 40);
    await hangUp('host2', channelId);
  });

  it('ends the caller\'s own older call when they call again (endCause replaced)', async () => {
    const first = await place('user5', 'host1');
    const second = await place('user5', 'host1');
    expect(callRow(first)).toMatchObject({ status: CallStatus.cancel, end_cause: EndCause.replaced });
    expect(callRow(second).status).toBe(CallStatus.calling);
    await hangUp('user5', second);
  });

  it('[§8 1005, 1000] needs a session and a callType of 0 or 10', async () => {
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host1'), callType: 0 }))
      .toEqual({ code: ResultCode.authFailed, message: TEXT_SESSION_EXPIRED });
    expect(await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host1'), callType: 5 } as never, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
  });
});

describe('[§7] joinCall and endCall', () => {
  it('connects on the callee\'s join, charges the first period at once and once only, and hangs up', async () => {
    const start = { user: wallet(id('user5')).diamonds, host: wallet(id('host1')).income };
    const channelId = await place('user5', 'host1');
    expect(await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as('user5')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_NOT_CALLEE });
    expect(await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as('user6')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_CALL_NOT_FOUND });
    expect((await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as('host1'))).code).toBe(ResultCode.success);
    // A retry (SPEC §9 joinCall times out at 3 s) changes nothing.
    expect((await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as('host1'))).code).toBe(ResultCode.success);
    const row = callRow(channelId);
    expect(row).toMatchObject({ status: CallStatus.inProgress, periods: 1, call_income: 30 });
    expect(wallet(id('user5')).diamonds).toBe(start.user - 30);
    expect(wallet(id('host1')).income).toBe(start.host + 30);
    expect(world.db.prepare('SELECT account, amount, reason FROM wallet_flows WHERE ref_id = ? AND reason LIKE \'call.%\' ORDER BY id').all(row.id))
      .toEqual([{ account: 'diamonds', amount: -30, reason: 'call.paid' }, { account: 'income', amount: 30, reason: 'call.income' }]);
    expect(noticesOf(world.db, p.host1!.yxAccid, AttachType.callIncome).at(-1)!.content)
      .toEqual({ attachType: 15, num: 30, channelId, period: 0 });
    // The engine refuses the same period again.
    expect(world.server.app.calls.charge(row.id, 0)).toBe('duplicate');

    await hangUp('host1', channelId, 1);
    expect(callRow(channelId)).toMatchObject({
      status: CallStatus.hungUp, hangup_reason: 1, ended_by: id('host1'), end_cause: EndCause.hangup, periods: 1,
    });
    expect(parties(row.id)).toEqual([]);
    // Ending again is not an error and changes nothing; joining an ended call is refused.
    await hangUp('user5', channelId, 2);
    expect(callRow(channelId)).toMatchObject({ hangup_reason: 1, ended_by: id('host1') });
    expect(await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as('host1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_CALL_ENDED });
    expect(world.server.app.calls.charge(row.id, 1)).toBe('closed');
    expect(wallet(id('user5')).diamonds).toBe(start.user - 30);
  });

  it('[§6] tells a party what the call costs: a paying callee the price, the VIP discount and the balance before taking it; the host no balance', async () => {
    // host2 (40 a minute) calls user2, a VIP with the app open: floor(40 × 80 / 100) = 32, "20 % off".
    const open = await world.people.presence(p.user2!);
    const placed = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('user2'), callType: 10 }, as('host2'));
    expect(placed.data).toMatchObject({ videoPrice: 32, listPrice: 40, callDiscount: 80 });
    expect(placed.data).not.toHaveProperty('balance');
    const channelId = placed.data!.channelId;
    const before = wallet(id('user2')).diamonds;
    expect((await world.server.call(callTerms, { searchValue: channelId }, as('user2'))).data).toEqual({
      videoPrice: 32, listPrice: 40, callDiscount: 80, billingPeriodMs: 60_000, youPay: true, balance: before,
    });
    expect((await world.server.call(callTerms, { searchValue: channelId }, as('host2'))).data).toEqual({
      videoPrice: 32, listPrice: 40, callDiscount: 80, billingPeriodMs: 60_000, youPay: false,
    });
    expect(await world.server.call(callTerms, { searchValue: channelId }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_CALL_NOT_FOUND });
    // Taken, the first period (a minute's price) is charged at once: a call hung up seconds later cost that period, no more.
    expect((await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as('user2'))).code).toBe(ResultCode.success);
    await hangUp('host2', channelId);
    expect(wallet(id('user2')).diamonds).toBe(before - 32);
    expect(callRow(channelId)).toMatchObject({ periods: 1, call_income: 32 });
    await open.call('status', { code: PresenceCode.offline });

    // A user who pays in full is told no discount.
    const full = await place('user1', 'host1');
    expect((await world.server.call(callTerms, { searchValue: full }, as('user1'))).data).toEqual({
      videoPrice: 30, listPrice: 30, billingPeriodMs: 60_000, youPay: true, balance: wallet(id('user1')).diamonds,
    });
    await hangUp('user1', full);
  });

  it('[§8 1080] ends a call whose payer can no longer pay the first period when it is taken', async () => {
    const channelId = await place('user7', 'host3');
    world.rw.prepare('UPDATE wallets SET diamonds = 10 WHERE user_id = ?').run(id('user7'));
    expect(await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as('host3')))
      .toEqual({ code: '1080', message: MESSAGE_DIAMOND_NOT_ENOUGH });
    expect(callRow(channelId)).toMatchObject({ status: CallStatus.hungUp, end_cause: EndCause.balance, periods: 0 });
    expect(wallet(id('user7')).diamonds).toBe(10);
    expect(world.db.prepare('SELECT count(*) FROM call_periods WHERE call_id = ?').pluck().get(callRow(channelId).id)).toBe(0);
    world.rw.prepare('UPDATE wallets SET diamonds = 50 WHERE user_id = ?').run(id('user7'));
  });

  it('[§4] a cancel by the caller and a refusal by the callee are status 2; the refused caller gets -3 type 1', async () => {
    const cancelled = await place('user6', 'host2');
    await hangUp('user6', cancelled);
    expect(callRow(cancelled)).toMatchObject({ status: CallStatus.cancel, end_cause: EndCause.cancel });

    const refused = await place('user6', 'host2');
    await hangUp('host2', refused);
    expect(callRow(refused)).toMatchObject({ status: CallStatus.cancel, end_cause: EndCause.reject, ended_by: id('host2') });
    const notice = noticesOf(world.db, p.user6!.yxAccid, AttachType.callState).at(-1)!;
    expect(notice).toMatchObject({ from_accid: SYSTEM_SENDER_ACCID, content: { type: 1, channelId: refused, content: TEXT_REFUSED } });
    expect(noticesOf(world.db, p.user6!.yxAccid, AttachType.callState).filter((n) => n.content.channelId === cancelled)).toEqual([]);
  });

  it('refuses unknown channels, strangers and a hangupReason outside 1, 2, 6', async () => {
    expect(await world.server.call(endCall, { channelId: 'nope', hangupReason: 1 }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_CALL_NOT_FOUND });
    const channelId = await place('user6', 'host2');
    expect(await world.server.call(endCall, { channelId, hangupReason: 1 }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_CALL_NOT_FOUND });
    expect(await world.server.call(endCall, { channelId, hangupReason: 3 } as never, as('user6')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
    await hangUp('user6', channelId);
  });
});

describe('[§7] /api/chat/callRate', () => {
  it('stores the §3 rating of a party, replaces it on a second rating, and validates abnormal (§5)', async () => {
    const channelId = await place('user5', 'host4');
    await hangUp('user5', channelId);
    const rating = { channelId, callType: 0, category: 2, answerTime: 12, userType: 1, abnormal: 0 as const };
    expect((await world.server.call(callRate, rating, as('user5'))).code).toBe(ResultCode.success);
    expect((await world.server.call(callRate, { ...rating, category: 3, abnormal: 1 }, as('user5'))).code).toBe(ResultCode.success);
    expect((await world.server.call(callRate, { ...rating, userType: 2 }, as('host4'))).code).toBe(ResultCode.success);
    expect(world.db.prepare('SELECT user_id, category, abnormal, answer_time FROM call_ratings WHERE call_id = ? ORDER BY user_id')
      .all(callRow(channelId).id)).toEqual([
      { user_id: id('host4'), category: 2, abnormal: 0, answer_time: 12 },
      { user_id: id('user5'), category: 3, abnormal: 1, answer_time: 12 },
    ]);
    expect(await world.server.call(callRate, { ...rating, abnormal: 2 } as never, as('user5')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
    expect(await world.server.call(callRate, rating, as('user6')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_CALL_NOT_FOUND });
  });
});

describe('call records', () => {
  it('lists the caller\'s calls made and received, newest first, with §4 status and type; one by channel', async () => {
    const audio = await place('user6', 'host5', 10);
    await hangUp('host5', audio);
    const video = await place('user6', 'host5');
    await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: video }, as('host5'));
    await hangUp('user6', video, 6);

    const mine = await world.server.call(callRecordList, { currentPage: 1, pageSize: 2 }, as('user6'));
    expect(mine.data!.total).toBe(world.db.prepare('SELECT count(*) FROM calls WHERE ? IN (caller_id, callee_id)').pluck().get(id('user6')));
    expect(mine.data!.list).toHaveLength(2);
    const [newest, older] = mine.data!.list;
    expect(newest).toMatchObject({
      channelId: video, callInOrOut: 'out', callType: 0, status: CallStatus.hungUp, callUserId: id('host5'),
      // user6 is a VIP: 80 % of host5's 80.
      yxAccid: p.host5!.yxAccid, nickname: 'Valentina', userType: 2, videoPrice: 64, hangupReason: 6, endCause: EndCause.hangup,
      periods: 1, callIncome: 64, callGiftIncome: 0,
    });
    expect(newest!.callConnectTime).toBeGreaterThanOrEqual(newest!.callStartTime);
    expect(newest!.callEndTime).toBeGreaterThanOrEqual(newest!.callConnectTime!);
    expect(older).toMatchObject({ channelId: audio, callType: 10, status: CallStatus.cancel, endCause: EndCause.reject, callDuration: 0 });

    const hostSide = await world.server.call(callRecordList, { currentPage: 1, pageSize: 1 }, as('host5'));
    expect(hostSide.data!.list[0]).toMatchObject({ channelId: video, callInOrOut: 'in', callUserId: id('user6'), nickname: 'Finn' });

    expect((await world.server.call(callRecordDetail, { searchValue: video }, as('host5'))).data).toEqual(hostSide.data!.list[0]);
    expect(await world.server.call(callRecordDetail, { searchValue: video }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_CALL_NOT_FOUND });
    expect(await world.server.call(callRecordList, { currentPage: 1, pageSize: 101 }, as('user6')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
  });
});
