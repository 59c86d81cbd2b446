/**
 * Per-period billing with real timers and short periods (the server takes its call timings as
 * options; `CALL_BILLING_PERIOD_MS` does the same for e2e runs), the ends the server decides
 * (balance, ring time-out, a party gone), and restarts over the same database.
 */
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CallStatus, HangupReason, SignalAction } from '../../machines/codes/call.codes';
import { PresenceCode } from '../../machines/codes/presence.codes';
import { AttachType } from '../../machines/codes/system.codes';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { EndCause, TEXT_CALL_END_BALANCE, TEXT_CALL_END_DEDUCTION } from '../../src/api/contract/call';
import type { ServerOptions } from '../app';
import { callPeople, noticesOf, sleep, type CallPeople, type Person } from '../testing/calls';
import { startTestServer, type TestServer } from '../testing/harness';

const { createCall, joinCall, endCall } = endpoints;

const PERIOD = 150;

interface CallRow {
  id: number; status: number; end_cause: string | null; hangup_reason: number | null; periods: number; call_income: number;
  connected_at: number; ended_at: number | null; price: number;
}

const callRowOf = (db: Database.Database, channelId: string) =>
  db.prepare<[string], CallRow>('SELECT * FROM calls WHERE channel_id = ?').get(channelId)!;
const periodsOf = (db: Database.Database, callId: number) =>
  db.prepare<[number], { period: number; amount: number }>('SELECT period, amount FROM call_periods WHERE call_id = ? ORDER BY period').all(callId);
const walletOf = (db: Database.Database, userId: number) =>
  db.prepare<[number], { diamonds: number; income: number }>('SELECT diamonds, income FROM wallets WHERE user_id = ?').get(userId)
  ?? { diamonds: 0, income: 0 };

async function connect(server: TestServer, caller: Person, callee: Person): Promise<string> {
  const created = await server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: callee.userId, callType: 0 }, { token: caller.token });
  expect(created.code, created.message).toBe(ResultCode.success);
  const channelId = created.data!.channelId;
  expect((await server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, { token: callee.token })).code).toBe(ResultCode.success);
  return channelId;
}

describe('billing with a short period', () => {
  let server: TestServer;
  let people: CallPeople;
  let db: Database.Database;
  const p: Record<string, Person> = {};
  beforeAll(async () => {
    server = await startTestServer({
      build: false, seed: { hosts: 4, users: 8 }, calls: { billingPeriodMs: PERIOD, ringTimeoutMs: 300, offlineGraceMs: 200 },
    });
    people = callPeople(server);
    db = server.readDb();
    for (const name of ['host1', 'host2', 'host3', 'host4', 'user1', 'user3', 'user5', 'user7']) p[name] = await people.signIn(`${name}@example.com`);
    for (const name of ['host1', 'host2', 'host3', 'host4']) await people.presence(p[name]!);
  });
  afterAll(async () => {
    await people.closeAll();
    await server.close();
  });

  it('charges one period per period while connected, pushes each to the host (15), and nothing after the hang-up', async () => {
    const hostIm = await people.im(p.host1!);
    const before = { user: walletOf(db, p.user1!.userId).diamonds, host: walletOf(db, p.host1!.userId).income };
    const channelId = await connect(server, p.user1!, p.host1!);
    await sleep(PERIOD * 3.5);
    expect((await server.call(endCall, { channelId, hangupReason: 1 }, { token: p.user1!.token })).code).toBe(ResultCode.success);
    const row = callRowOf(db, channelId);
    const periods = periodsOf(db, row.id);
    const elapsed = row.ended_at! - row.connected_at;
    // Period k is due at connected + k × PERIOD; on a busy machine a late timer may not have run for the last ones due.
    expect(periods.length).toBeGreaterThanOrEqual(Math.floor(elapsed / PERIOD) - 1);
    expect(periods.length).toBeLessThanOrEqual(Math.floor(elapsed / PERIOD) + 1);
    expect(periods.length).toBeGreaterThanOrEqual(3);
    expect(periods).toEqual(periods.map((_, k) => ({ period: k, amount: 30 })));
    const n = periods.length;
    expect(row).toMatchObject({ status: CallStatus.hungUp, periods: n, call_income: 30 * n });
    expect(walletOf(db, p.user1!.userId).diamonds).toBe(before.user - 30 * n);
    expect(walletOf(db, p.host1!.userId).income).toBe(before.host + 30 * n);
    // Each period is in the ledger twice (taken, earned), with the balance after it.
    const flows = db.prepare<[number], { account: string; amount: number; balance: number }>(
      "SELECT account, amount, balance FROM wallet_flows WHERE ref_id = ? AND reason LIKE 'call.%' ORDER BY id",
    ).all(row.id);
    expect(flows.filter((f) => f.account === 'diamonds').map((f) => f.balance))
      .toEqual(periods.map((_, k) => before.user - 30 * (k + 1)));
    expect(flows.filter((f) => f.account === 'income').map((f) => f.amount)).toEqual(periods.map(() => 30));
    // The host's IM got every attachType 15 live.
    await vi.waitFor(() => {
      const pushed = hostIm.pushes
        .filter((push) => push.type === 'notification')
        .map((push) => (push.notification as { content: Record<string, unknown> }).content)
        .filter((c) => c.attachType === AttachType.callIncome && c.channelId === channelId);
      expect(pushed.map((c) => c.num)).toEqual(periods.map(() => 30));
    });
    await sleep(PERIOD * 2);
    expect(periodsOf(db, row.id)).toHaveLength(n);
    expect(server.app.calls.timerCount()).toBe(0);
  });

  it('ends the call when the payer cannot pay the next period, never below zero, and tells both sides', async () => {
    const hostSignal = await people.signal(p.host2!);
    const userIm = await people.im(p.user3!);
    // user3 has 50 diamonds; host2 costs 40 a period: one period, then 10 left.
    const channelId = await connect(server, p.user3!, p.host2!);
    await vi.waitFor(() => expect(callRowOf(db, channelId).status).toBe(CallStatus.hungUp), { timeout: PERIOD * 6 });
    const row = callRowOf(db, channelId);
    expect(row).toMatchObject({ end_cause: EndCause.balance, periods: 1, call_income: 40, hangup_reason: null });
    expect(walletOf(db, p.user3!.userId).diamonds).toBe(10);
    for (const person of [p.user3!, p.host2!]) {
      expect(noticesOf(db, person.yxAccid, AttachType.callState).at(-1)!.content)
        .toMatchObject({ type: 3, channelId, content: TEXT_CALL_END_BALANCE, endCause: EndCause.balance });
    }
    await vi.waitFor(() => expect(userIm.pushes.some((push) => push.type === 'notification'
      && (push.notification as { content: { type?: number } }).content.type === 3)).toBe(true));
    // The host's signalling hears a hang-up in the user's name, marked as the server's.
    await vi.waitFor(() => expect(hostSignal.pushes.at(-1)).toMatchObject({
      type: 'signal',
      signal: { action: SignalAction.hangup, channelId, from: p.user3!.yxAccid, payload: { byServer: true, endCause: EndCause.balance } },
    }));
  });

  it('[§3 deductionErrMaxNum] ends the call after 3 failed charges in a row, takes nothing for them, and tells both sides', async () => {
    const userIm = await people.im(p.user1!);
    const before = { user: walletOf(db, p.user1!.userId).diamonds, host: walletOf(db, p.host4!.userId).income };
    const channelId = await connect(server, p.user1!, p.host4!);
    const row = callRowOf(db, channelId);
    expect(periodsOf(db, row.id)).toHaveLength(1);
    // The database refuses every later period of this call (as a full disk or a locked file would).
    const writer = new Database(server.dbPath);
    writer.exec(`CREATE TRIGGER refuse_periods BEFORE INSERT ON call_periods WHEN NEW.call_id = ${row.id}
      BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`);
    try {
      await vi.waitFor(() => expect(callRowOf(db, channelId).status).toBe(CallStatus.hungUp), { timeout: PERIOD * 12 });
    } finally {
      writer.exec('DROP TRIGGER refuse_periods');
      writer.close();
    }
    // Tried again within the retry time (the period here), three tries: the end comes after about 1 + 2 periods.
    const ended = callRowOf(db, channelId);
    expect(ended).toMatchObject({ end_cause: EndCause.deduction, periods: 1, hangup_reason: null });
    expect(ended.ended_at! - ended.connected_at).toBeGreaterThanOrEqual(PERIOD * 3);
    expect(walletOf(db, p.user1!.userId).diamonds).toBe(before.user - ended.price);
    expect(walletOf(db, p.host4!.userId).income).toBe(before.host + ended.price);
    for (const person of [p.user1!, p.host4!]) {
      expect(noticesOf(db, person.yxAccid, AttachType.callState).at(-1)!.content)
        .toMatchObject({ type: 3, channelId, content: TEXT_CALL_END_DEDUCTION, endCause: EndCause.deduction });
    }
    await vi.waitFor(() => expect(userIm.pushes.some((push) => push.type === 'notification'
      && (push.notification as { content: { endCause?: string } }).content.endCause === EndCause.deduction)).toBe(true));
    expect(server.app.calls.timerCount()).toBe(0);
  });

  it('[§4 timeout] times out a call nobody answers (status 5) and frees both sides', async () => {
    const created = await server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: p.host3!.userId, callType: 0 }, { token: p.user5!.token });
    const channelId = created.data!.channelId;
    await vi.waitFor(() => expect(callRowOf(db, channelId).status).toBe(CallStatus.timeout), { timeout: 2000 });
    expect(callRowOf(db, channelId)).toMatchObject({ end_cause: EndCause.timeout, periods: 0 });
    expect(db.prepare('SELECT count(*) FROM call_parties WHERE call_id = ?').pluck().get(callRowOf(db, channelId).id)).toBe(0);
    const again = await server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: p.host3!.userId, callType: 0 }, { token: p.user5!.token });
    expect(again.code).toBe(ResultCode.success);
    await server.call(endCall, { channelId: again.data!.channelId, hangupReason: 1 }, { token: p.user5!.token });
  });

  it('ends a connected call whose host went offline for the grace time (hangupReason 6)', async () => {
    const host = await people.signIn('host4@example.com');
    const presence = await people.presence(host);
    const channelId = await connect(server, p.user5!, p.host4!);
    await presence.call('status', { code: PresenceCode.offline });
    await vi.waitFor(() => expect(callRowOf(db, channelId).status).toBe(CallStatus.hungUp), { timeout: 2000 });
    expect(callRowOf(db, channelId)).toMatchObject({ end_cause: EndCause.offline, hangup_reason: HangupReason.weakNetwork });
  });
});

describe('restarts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'anchor-calls-restart-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const start = (name: string, calls: ServerOptions['calls']) =>
    startTestServer({ build: false, dbPath: join(dir, `${name}.db`), seed: { hosts: 2, users: 2 }, calls });

  async function parties(server: TestServer) {
    const people = callPeople(server);
    const user = await people.signIn('user1@example.com');
    const host = await people.signIn('host1@example.com');
    await people.presence(host);
    return { people, user, host };
  }

  it('resumes a call across a quick restart without charging any period twice', async () => {
    // Long enough that the restart surely falls inside period 1.
    const period = 1000;
    const first = await start('resume', { billingPeriodMs: period });
    const { people, user, host } = await parties(first);
    const db1 = first.readDb();
    // host1 starts with the seed's income (server/db/seed.ts HOST_INCOME).
    const incomeBefore = walletOf(db1, host.userId).income;
    const channelId = await connect(first, user, host);
    const callId = callRowOf(db1, channelId).id;
    // Period 0 on joining, period 1 a period later; the restart comes inside period 1.
    await vi.waitFor(() => expect(periodsOf(db1, callId)).toHaveLength(2), { timeout: 3000 });
    const paidBefore = walletOf(db1, user.userId).diamonds;
    await people.closeAll();
    await first.close();

    const second = await start('resume', { billingPeriodMs: period });
    try {
      const db2 = second.readDb();
      // Nothing charged on start: period 1 is paid and period 2 not yet due.
      expect(periodsOf(db2, callId)).toHaveLength(2);
      expect(second.app.calls.charge(callId, 1)).toBe('duplicate');
      expect(walletOf(db2, user.userId).diamonds).toBe(paidBefore);
      await vi.waitFor(() => expect(periodsOf(db2, callId)).toHaveLength(4), { timeout: 5000 });
      const again = callPeople(second);
      const userAgain = await again.signIn('user1@example.com');
      expect((await second.call(endCall, { channelId, hangupReason: 1 }, { token: userAgain.token })).code).toBe(ResultCode.success);
      const row = callRowOf(db2, channelId);
      const periods = periodsOf(db2, callId);
      expect(periods.map((x) => x.period)).toEqual(periods.map((_, k) => k));
      expect(periods.length).toBeLessThanOrEqual(Math.floor((row.ended_at! - row.connected_at) / period) + 1);
      expect(row.call_income).toBe(30 * periods.length);
      expect(walletOf(db2, user.userId).diamonds).toBe(1000 - 30 * periods.length);
      expect(walletOf(db2, host.userId).income).toBe(incomeBefore + 30 * periods.length);
      expect(db2.prepare("SELECT count(*) FROM wallet_flows WHERE ref_id = ? AND reason = 'call.paid'").pluck().get(callId)).toBe(periods.length);
    } finally {
      await second.close();
    }
  });

  it('settles a call left connected through a long outage where its payment ended, and times out one left ringing', async () => {
    const period = 200;
    const first = await start('settle', { billingPeriodMs: period, ringTimeoutMs: 300 });
    const { people, user, host } = await parties(first);
    const connected = await connect(first, user, host);
    const other = await people.signIn('user2@example.com');
    const hostTwo = await people.signIn('host2@example.com');
    await people.presence(hostTwo);
    const ringing = (await first.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: hostTwo.userId, callType: 0 }, { token: other.token })).data!.channelId;
    const db1 = first.readDb();
    const row1 = callRowOf(db1, connected);
    await people.closeAll();
    await first.close();
    const next = await sleep(period * 4).then(() => start('settle', { billingPeriodMs: period, ringTimeoutMs: 300 }));
    try {
      const db2 = next.readDb();
      const row = callRowOf(db2, connected);
      const paid = periodsOf(db2, row1.id).length;
      expect(row).toMatchObject({ status: CallStatus.hungUp, end_cause: EndCause.restart, periods: paid });
      expect(row.ended_at).toBe(row.connected_at + paid * period);
      expect(callRowOf(db2, ringing)).toMatchObject({ status: CallStatus.timeout, end_cause: EndCause.timeout });
      await sleep(period * 2);
      expect(periodsOf(db2, row1.id)).toHaveLength(paid);
      expect(next.app.calls.timerCount()).toBe(0);
    } finally {
      await next.close();
    }
  });
});
