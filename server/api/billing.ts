/**
 * The call engine of the reference server: the state of each one-to-one call (SPEC §4 Call
 * status), its per-period billing, its ring time-out and its resumption after a restart. The
 * rules it implements are written down in src/api/contract/call.ts; the handlers
 * (server/api/call.ts) validate requests and call into it.
 *
 * Money moves only in `charge`: one SQLite transaction per period that first records the
 * period (`call_periods`' primary key (call_id, period) admits it once, so no period is ever
 * charged twice, whatever the timers or a restart do), then takes the price from the payer
 * with the wallets' conditional UPDATE (never below zero; a short balance throws, which undoes
 * the period row), credits the host's income, writes both wallet flows and stores the host's
 * attachType 15 notification. Pushes and signals go out only after the commit (an outbox), so
 * nobody is told of money that did not move.
 *
 * A charge that fails for another reason than the balance (the database refusing the write) is
 * tried again within seconds; the third failure in a row ends the call (SPEC §3
 * deductionErrMaxNum), as a short balance does, so nobody talks unpaid for long.
 *
 * Time: period k of a call is due at connected_at + k × billingPeriodMs; each call has one
 * timer at a time (its ring time-out while ringing, its next period while connected), set to
 * an absolute deadline, so a late timer catches up instead of stretching the call. Nothing here
 * holds state that the database does not: the timers are rebuilt from the open calls on start.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { PresenceCode } from '../../machines/ports/presence.port';
import { SignalAction } from '../../machines/ports/signalling.port';
import { AttachType, CallStateType, TEXT_REFUSED } from '../../machines/system-messages/system-messages';
import {
  CallRefusalCode, CallStatus, DEDUCTION_ERR_MAX_NUM, DEDUCTION_RETRY_MS, DEFAULT_BILLING_PERIOD_MS, DEFAULT_RING_TIMEOUT_MS, EndCause,
  HangupReason, TEXT_CALL_BUSY, TEXT_CALL_END_BALANCE, TEXT_CALL_END_DEDUCTION, TEXT_CALL_END_OFFLINE, TEXT_CALL_END_TIMEOUT,
  missedCallText, type CallIncomeNotice, type CallStateNotice, type CallType,
} from '../../src/api/contract/call';
import type { SentSignal } from '../realtime/signal';
import { appConfig } from '../db/app-config';
import type { Db } from '../db/database';
import type { RealtimeHub } from '../realtime/hub';
import { createImStore } from '../realtime/im.store';
import { createWallets } from '../users/users';
import { CALL_TIMEOUT_CONFIG_KEY } from '../../src/api/contract/config';
import { ApiError } from './transport';

declare module 'fastify' {
  interface FastifyInstance {
    /** The call engine (server/api/billing.ts); tests reach it here. */
    calls: CallEngine;
  }
}

export interface CallOptions {
  /** One billing period (the host's price is per period); default a minute. */
  billingPeriodMs?: number;
  /** A call still ringing after this is timed out (status 5); default 30 s (SPEC §9). */
  ringTimeoutMs?: number;
  /** A party whose presence has been offline this long, with no signalling socket, is gone; default 30 s. */
  offlineGraceMs?: number;
}

export type CallRealtimeDeps = Pick<RealtimeHub, 'im' | 'signal' | 'presence'>;

/** The flow reasons calls and gifts write (wallet_flows.reason; ref_id is the call or the gift send). */
export const CallFlowReason = {
  callPaid: 'call.paid',
  callIncome: 'call.income',
  giftPaid: 'gift.paid',
  giftIncome: 'gift.income',
} as const;

export interface CallRow {
  id: number;
  channel_id: string;
  caller_id: number;
  callee_id: number;
  payer_id: number;
  host_id: number;
  call_type: CallType;
  status: CallStatus;
  price: number;
  list_price: number;
  created_at: number;
  connected_at: number | null;
  ended_at: number | null;
  hangup_reason: HangupReason | null;
  ended_by: number | null;
  end_cause: EndCause | null;
  periods: number;
  call_income: number;
  gift_income: number;
  caller_accid: string;
  callee_accid: string;
}

export interface NewCall {
  callerId: number;
  calleeId: number;
  payerId: number;
  hostId: number;
  callType: CallType;
  price: number;
  listPrice: number;
}

export type ChargeResult = 'charged' | 'duplicate' | 'short' | 'closed';

/** Work to do once a transaction committed (IM pushes, signals, timers). */
export type Outbox = (() => void)[];

/** What taking a call did: connected (first period charged), taken already, or ended for want of diamonds. */
export type JoinResult = 'joined' | 'taken' | 'short';

export const accidOf = (call: CallRow, userId: number): string =>
  userId === call.caller_id ? call.caller_accid : call.callee_accid;
export const peerOf = (call: CallRow, userId: number): number =>
  userId === call.caller_id ? call.callee_id : call.caller_id;

const isOpen = (status: CallStatus) => status === CallStatus.calling || status === CallStatus.inProgress;

class ShortBalance extends Error {}

/** The -3 type 3 text of each end the server decides. */
const SERVER_END_TEXT: Partial<Record<EndCause, string>> = {
  [EndCause.balance]: TEXT_CALL_END_BALANCE,
  [EndCause.offline]: TEXT_CALL_END_OFFLINE,
  [EndCause.timeout]: TEXT_CALL_END_TIMEOUT,
  [EndCause.restart]: TEXT_CALL_END_OFFLINE,
  [EndCause.replaced]: TEXT_CALL_END_OFFLINE,
  [EndCause.deduction]: TEXT_CALL_END_DEDUCTION,
};

export type CallEngine = ReturnType<typeof createCallEngine>;

export function createCallEngine(
  { db, realtime, log }: { db: Db; realtime: CallRealtimeDeps; log?: FastifyBaseLogger },
  options: CallOptions = {},
) {
  const billingPeriodMs = options.billingPeriodMs ?? DEFAULT_BILLING_PERIOD_MS;
  const ringTimeoutMs = options.ringTimeoutMs ?? DEFAULT_RING_TIMEOUT_MS;
  const offlineGraceMs = options.offlineGraceMs ?? 30_000;
  for (const [name, value] of Object.entries({ billingPeriodMs, ringTimeoutMs, offlineGraceMs })) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`calls.${name} must be a positive integer of ms, not ${value}.`);
  }
  const startedAt = Date.now();
  const wallets = createWallets(db);
  /** Failed charges in a row, per open call (SPEC §3 deductionErrMaxNum). */
  const deductionErrors = new Map<number, number>();
  const config = appConfig(db);
  /**
   * How long a call rings: the app config `callTimeOutNum` (seconds, SPEC §9) when it holds a
   * sane whole number (5 s to 5 min), otherwise the engine's default (30 s, or the test's).
   */
  const ringTimeout = (): number => {
    const seconds = Number(config.get(CALL_TIMEOUT_CONFIG_KEY) ?? NaN);
    return Number.isInteger(seconds) && seconds >= 5 && seconds <= 300 ? seconds * 1000 : ringTimeoutMs;
  };
  const imStore = createImStore(db);

  const CALL_SELECT = `SELECT c.*, a.yx_accid AS caller_accid, b.yx_accid AS callee_accid
    FROM calls c JOIN users a ON a.id = c.caller_id JOIN users b ON b.id = c.callee_id`;
  const q = {
    byId: db.prepare<[number], CallRow>(`${CALL_SELECT} WHERE c.id = ?`),
    byChannel: db.prepare<[string], CallRow>(`${CALL_SELECT} WHERE c.channel_id = ?`),
    open: db.prepare<[], CallRow>(`${CALL_SELECT} WHERE c.status IN (${CallStatus.calling}, ${CallStatus.inProgress}) ORDER BY c.id`),
    callOf: db.prepare<[number], number>('SELECT call_id FROM call_parties WHERE user_id = ?').pluck(),
    insert: db.prepare<{ channel: string; caller: number; callee: number; payer: number; host: number; type: number; status: number; price: number; listPrice: number; time: number }>(
      `INSERT INTO calls (channel_id, caller_id, callee_id, payer_id, host_id, call_type, status, price, list_price, created_at)
       VALUES (@channel, @caller, @callee, @payer, @host, @type, @status, @price, @listPrice, @time)`,
    ),
    addParty: db.prepare<[number, number]>('INSERT INTO call_parties (user_id, call_id) VALUES (?, ?)'),
    removeParties: db.prepare<[number]>('DELETE FROM call_parties WHERE call_id = ?'),
    connect: db.prepare<{ id: number; time: number }>(
      `UPDATE calls SET status = ${CallStatus.inProgress}, connected_at = @time WHERE id = @id AND status = ${CallStatus.calling}`,
    ),
    end: db.prepare<{ id: number; status: number; time: number; reason: number | null; by: number | null; cause: string }>(
      `UPDATE calls SET status = @status, ended_at = @time, hangup_reason = @reason, ended_by = @by, end_cause = @cause
        WHERE id = @id AND status IN (${CallStatus.calling}, ${CallStatus.inProgress})`,
    ),
    addPeriod: db.prepare<{ id: number; period: number; amount: number; time: number }>(
      'INSERT INTO call_periods (call_id, period, amount, charged_at) VALUES (@id, @period, @amount, @time) ON CONFLICT DO NOTHING',
    ),
    countPeriod: db.prepare<{ id: number; amount: number }>(
      'UPDATE calls SET periods = periods + 1, call_income = call_income + @amount WHERE id = @id',
    ),
    nextPeriod: db.prepare<[number], number>('SELECT coalesce(max(period) + 1, 0) FROM call_periods WHERE call_id = ?').pluck(),
  };
  const nicknameOf = db.prepare<[number], string>('SELECT nickname FROM users WHERE id = ?').pluck();

  /** One timer per open call: its ring time-out, or its next period. */
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  let stopped = false;

  /** Stores an IM system notification now (inside the caller's transaction, from the system sender) and queues its push. */
  function notice(out: Outbox, to: string, content: CallStateNotice | CallIncomeNotice): void {
    const item = imStore.system(to, content);
    out.push(() => realtime.im.connectionOf(to)?.push(item));
  }

  const flush = (out: Outbox) => {
    for (const fn of out) {
      try {
        fn();
      } catch (err) {
        log?.error({ err }, 'call notification failed');
      }
    }
  };

  function clearTimer(id: number): void {
    clearTimeout(timers.get(id));
    timers.delete(id);
  }

  function schedule(id: number, at: number, run: (id: number) => void): void {
    clearTimer(id);
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(id);
      if (stopped) return;
      try {
        run(id);
      } catch (err) {
        log?.error({ err, callId: id }, 'call timer failed');
        // Tried again a period later rather than left to bill nothing or crash the server.
        schedule(id, Date.now() + billingPeriodMs, run);
      }
    }, Math.max(0, at - Date.now()));
    timer.unref();
    timers.set(id, timer);
  }

  const dueAt = (call: CallRow, period: number) => call.connected_at! + period * billingPeriodMs;

  /**
   * Ends an open call (false when it was not open any more). Server-decided ends (`byServer`)
   * tell both parties: -3 type 3 with the reason, and a signal from the other party (cancel
   * while ringing, hangup when connected) marked `byServer`.
   */
  const endTx = db.transaction((id: number, end: { by: number | null; reason: HangupReason | null; cause: EndCause; at: number }, out: Outbox): boolean => {
    const call = q.byId.get(id);
    if (!call || !isOpen(call.status)) return false;
    const ringing = call.status === CallStatus.calling;
    const status = !ringing ? CallStatus.hungUp : end.cause === EndCause.timeout ? CallStatus.timeout : CallStatus.cancel;
    q.end.run({ id, status, time: end.at, reason: end.reason, by: end.by, cause: end.cause });
    q.removeParties.run(id);
    if (end.cause === EndCause.reject) {
      notice(out, call.caller_accid, {
        attachType: AttachType.callState, type: CallStateType.refused, channelId: call.channel_id, content: TEXT_REFUSED,
      });
    }
    if (end.cause === EndCause.unavailable && end.by === null) {
      // The ring never reached her: she hears of the call she missed (her app keeps the channel -3 type 0 named).
      notice(out, call.callee_accid, {
        attachType: AttachType.callState, type: CallStateType.warning, channelId: call.channel_id,
        content: missedCallText(nicknameOf.get(call.caller_id) ?? ''), endCause: end.cause,
      });
    }
    const text = SERVER_END_TEXT[end.cause];
    if (text !== undefined) {
      // A replaced call is the caller's own doing: only the other party needs telling.
      const told = end.cause === EndCause.replaced ? [call.callee_id] : [call.caller_id, call.callee_id];
      for (const userId of told) {
        const to = accidOf(call, userId);
        const from = accidOf(call, peerOf(call, userId));
        notice(out, to, {
          attachType: AttachType.callState, type: CallStateType.warning, channelId: call.channel_id, content: text, endCause: end.cause,
        });
        const action = ringing ? SignalAction.cancel : SignalAction.hangup;
        out.push(() => realtime.signal.deliver(from, to, {
          action, channelId: call.channel_id, payload: { byServer: true, endCause: end.cause },
        }));
      }
    }
    return true;
  });

  function end(id: number, how: { by: number | null; reason: HangupReason | null; cause: EndCause; at?: number }): boolean {
    const out: Outbox = [];
    const ended = endTx(id, { ...how, at: how.at ?? Date.now() }, out);
    if (ended) {
      clearTimer(id);
      deductionErrors.delete(id);
    }
    flush(out);
    return ended;
  }

  const chargeTx = db.transaction((id: number, period: number, out: Outbox): ChargeResult => {
    const call = q.byId.get(id);
    if (!call || call.status !== CallStatus.inProgress) return 'closed';
    const time = Date.now();
    if (q.addPeriod.run({ id, period, amount: call.price, time }).changes === 0) return 'duplicate';
    if (call.price > 0) {
      if (wallets.spend(call.payer_id, call.price, CallFlowReason.callPaid, id) === undefined) throw new ShortBalance();
      wallets.earn(call.host_id, 'income', call.price, CallFlowReason.callIncome, id);
      notice(out, accidOf(call, call.host_id), {
        attachType: AttachType.callIncome, num: call.price, channelId: call.channel_id, period,
      });
    }
    q.countPeriod.run({ id, amount: call.price });
    return 'charged';
  });

  /** Charges period `period` of a connected call once (see the file comment). */
  function charge(id: number, period: number): ChargeResult {
    const out: Outbox = [];
    let result: ChargeResult;
    try {
      result = chargeTx(id, period, out);
    } catch (err) {
      if (err instanceof ShortBalance) return 'short';
      throw err;
    }
    flush(out);
    return result;
  }

  /**
   * A party is gone when their presence says offline, said after the call connected, for
   * offlineGraceMs (counted from the server's start at the earliest: a shutdown marks everyone
   * offline, and clients need a moment to come back), and they have no signalling socket.
   */
  function partyGone(call: CallRow, userId: number, now: number): boolean {
    if (realtime.signal.isOnline(accidOf(call, userId))) return false;
    const presence = realtime.presence.statusOf(userId);
    if (presence?.status !== PresenceCode.offline || presence.updatedAt < call.connected_at!) return false;
    return now - Math.max(presence.updatedAt, startedAt) >= offlineGraceMs;
  }

  /** A connected call's timer: check the parties, charge what is due, set the next deadline. */
  function bill(id: number): void {
    const call = q.byId.get(id);
    if (!call || call.status !== CallStatus.inProgress) return;
    const now = Date.now();
    if (partyGone(call, call.caller_id, now) || partyGone(call, call.callee_id, now)) {
      end(id, { by: null, reason: HangupReason.weakNetwork, cause: EndCause.offline });
      return;
    }
    const period = q.nextPeriod.get(id)!;
    if (now >= dueAt(call, period)) {
      let result: ChargeResult;
      try {
        result = charge(id, period);
        deductionErrors.delete(id);
      } catch (err) {
        // Not for want of diamonds (that is 'short'): the charge itself failed. Tried again soon; ended after the last try.
        const errors = (deductionErrors.get(id) ?? 0) + 1;
        log?.error({ err, callId: id, errors }, 'call period could not be charged');
        if (errors >= DEDUCTION_ERR_MAX_NUM) {
          end(id, { by: null, reason: null, cause: EndCause.deduction });
          return;
        }
        deductionErrors.set(id, errors);
        schedule(id, Date.now() + Math.min(DEDUCTION_RETRY_MS, billingPeriodMs), bill);
        return;
      }
      if (result === 'short') {
        end(id, { by: null, reason: null, cause: EndCause.balance });
        return;
      }
      if (result === 'closed') return;
    }
    schedule(id, dueAt(call, q.nextPeriod.get(id)!), bill);
  }

  /**
   * A party's own end: cancel (the caller) or refusal (the callee, or `refusal` when its reject
   * said why) while ringing, hang-up when connected; false when the call had ended.
   */
  function endBy(call: CallRow, userId: number, reason: HangupReason, refusal?: EndCause): boolean {
    const cause = call.status === CallStatus.inProgress
      ? EndCause.hangup
      : userId === call.caller_id ? EndCause.cancel : refusal ?? EndCause.reject;
    return end(call.id, { by: userId, reason, cause });
  }

  function ringOut(id: number): void {
    end(id, { by: null, reason: null, cause: EndCause.timeout });
  }

  const openTx = db.transaction((call: NewCall, out: Outbox): { row: CallRow; replaced: number | undefined } => {
    // The caller's own open call is a left-over (one call at a time on the client): it ends first.
    const previous = q.callOf.get(call.callerId);
    if (previous !== undefined) endTx(previous, { by: call.callerId, reason: HangupReason.local, cause: EndCause.replaced, at: Date.now() }, out);
    if (q.callOf.get(call.calleeId) !== undefined) throw new ApiError(CallRefusalCode.busy, TEXT_CALL_BUSY);
    const id = Number(q.insert.run({
      channel: randomUUID().replaceAll('-', ''),
      caller: call.callerId,
      callee: call.calleeId,
      payer: call.payerId,
      host: call.hostId,
      type: call.callType,
      status: CallStatus.calling,
      price: call.price,
      listPrice: call.listPrice,
      time: Date.now(),
    }).lastInsertRowid);
    q.addParty.run(call.callerId, id);
    q.addParty.run(call.calleeId, id);
    const row = q.byId.get(id)!;
    notice(out, row.callee_accid, {
      attachType: AttachType.callState, type: CallStateType.targetChannel, channelId: row.channel_id,
      callType: row.call_type, fromUserId: row.caller_id,
    });
    return { row, replaced: previous };
  });

  /** Connects a ringing call and charges its first period; a payer who cannot pay it ends the call ('short'). */
  const joinTx = db.transaction((id: number, out: Outbox): JoinResult => {
    if (q.connect.run({ id, time: Date.now() }).changes === 0) return 'taken';
    try {
      chargeTx(id, 0, out);
    } catch (err) {
      if (!(err instanceof ShortBalance)) throw err;
      endTx(id, { by: null, reason: null, cause: EndCause.balance, at: Date.now() }, out);
      return 'short';
    }
    return 'joined';
  });

  /** Runs `work` now, or queues it on `after` when the caller's own transaction commits later. */
  const afterCommit = (after: Outbox | undefined, work: () => void) => (after ? after.push(work) : work());

  /** Settles or resumes the open calls of a database the server starts on (see call.ts). */
  function resume(): void {
    const now = Date.now();
    for (const call of q.open.all()) {
      if (call.status === CallStatus.calling) {
        const deadline = call.created_at + ringTimeout();
        if (now >= deadline) ringOut(call.id);
        else schedule(call.id, deadline, ringOut);
        continue;
      }
      const due = dueAt(call, q.nextPeriod.get(call.id)!);
      if (now - due >= billingPeriodMs) {
        // More than a period went by unwatched: nobody can say the call went on, so it ends where its payment did.
        end(call.id, { by: null, reason: null, cause: EndCause.restart, at: Math.max(due, call.connected_at!) });
      } else {
        schedule(call.id, due, bill);
      }
    }
  }

  resume();

  return {
    billingPeriodMs,
    ringTimeout,

    byChannel: (channelId: string): CallRow | undefined => q.byChannel.get(channelId),
    byId: (id: number): CallRow | undefined => q.byId.get(id),
    /** The open call the user is in, if any. */
    openCallOf(userId: number): CallRow | undefined {
      const id = q.callOf.get(userId);
      return id === undefined ? undefined : q.byId.get(id);
    },

    /**
     * Stores a new ringing call and starts its ring time-out; 1992 when the callee is in a call.
     * Called within a transaction of the caller's (an idempotent createCall), `after` takes the
     * pushes and the timers, for the caller to run once that transaction committed.
     */
    open(call: NewCall, after?: Outbox): CallRow {
      const out: Outbox = [];
      const { row, replaced } = openTx(call, out);
      afterCommit(after, () => {
        if (replaced !== undefined) clearTimer(replaced);
        flush(out);
        schedule(row.id, row.created_at + ringTimeout(), ringOut);
      });
      return row;
    },

    /**
     * The callee took the call: connected, first period charged at once, the rest on the timer.
     * 'short' when the payer cannot pay the first period (the call is ended: endCause 'balance');
     * 'taken' when it was connected already (nothing done). `after` as for `open`.
     */
    join(id: number, after?: Outbox): JoinResult {
      const out: Outbox = [];
      const result = joinTx(id, out);
      afterCommit(after, () => {
        if (result !== 'taken') {
          clearTimer(id);
          deductionErrors.delete(id);
        }
        flush(out);
        if (result === 'joined') schedule(id, dueAt(q.byId.get(id)!, 1), bill);
      });
      return result;
    },

    /**
     * A party's endCall (src/api/contract/call.ts, who ended a call): its own end (reason 1, or
     * 6 for weak network on its side) unless the call had ended already; a reason 2 (the other
     * side ended it) that comes before any end of the other side ends it as nobody's ('dropped').
     * False when it had ended.
     */
    hangUp(call: CallRow, userId: number, reason: HangupReason): boolean {
      if (reason === HangupReason.remote) return end(call.id, { by: null, reason: HangupReason.weakNetwork, cause: EndCause.dropped });
      return endBy(call, userId, reason);
    },

    /**
     * A signal a party sent through the hub (server/realtime/signal.ts `onSent`): an end signal is
     * its end intent, heard before the peer is told (so the peer's own end that follows changes
     * nothing); a ring that found no signalling connection of the callee ends the ringing call
     * as one she could not take ('unavailable').
     */
    signalled(sent: SentSignal): void {
      const call = q.byChannel.get(sent.channelId);
      if (!call || !isOpen(call.status)) return;
      const userId = sent.from === call.caller_accid ? call.caller_id : sent.from === call.callee_accid ? call.callee_id : undefined;
      if (userId === undefined) return;
      const payload = sent.payload ?? {};
      switch (sent.action) {
        case SignalAction.videoCall:
        case SignalAction.audioCall:
          if (!sent.delivered && userId === call.caller_id && call.status === CallStatus.calling) {
            end(call.id, { by: null, reason: null, cause: EndCause.unavailable });
          }
          return;
        case SignalAction.cancel:
        case SignalAction.hangup:
          endBy(call, userId, payload.reason === HangupReason.weakNetwork ? HangupReason.weakNetwork : HangupReason.local);
          return;
        case SignalAction.reject: {
          const why = payload.busy === true ? EndCause.busy : payload.unavailable === true ? EndCause.unavailable : undefined;
          endBy(call, userId, HangupReason.local, why);
          return;
        }
        default:
      }
    },

    /** Charges one period now (tests: a period charged already is 'duplicate'). */
    charge,

    /** Open calls with a timer (tests). */
    timerCount: () => timers.size,

    /** The server is stopping: no timer runs from now on; open calls stay open for the next start. */
    stop(): void {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
