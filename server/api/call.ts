/**
 * Handlers of src/api/contract/call.ts: placing, taking and ending one-to-one calls, rating
 * them and listing them. The rules (who may call whom, the refusals, who pays, the VIP
 * discount) are in the contract's comment; state changes, billing and timers are the call
 * engine's (billing.ts). Placing and taking a call are idempotent (idempotency.ts): the call
 * stored or connected, its first period charged and the answer stored are one transaction,
 * and its pushes and timers start after the commit.
 */
import type * as z from 'zod/mini';
import { PresenceCode } from '../../machines/ports/presence.port';
import { MESSAGE_DIAMOND_NOT_ENOUGH, MESSAGE_NO_MATCH_USER, ResultCode } from '../../src/api/codes';
import { call } from '../../src/api/contract';
import {
  CallRefusalCode, CallStatus, HangupReason, TEXT_CALL_BUSY, TEXT_CALL_ENDED, TEXT_CALL_NOT_FOUND, TEXT_CALL_PAIR, TEXT_CALL_SELF,
  TEXT_CALL_UNAVAILABLE, TEXT_HOST_CANNOT_CALL, TEXT_NOT_CALLEE, VIP_CALL_DISCOUNT_KEY, discountedPrice,
  type CallInfo, type CallRecord,
} from '../../src/api/contract/call';
import { OnlineGroupStatus } from '../../src/api/contract/news';
import { appConfig } from '../db/app-config';
import type { Db } from '../db/database';
import type { RealtimeHub } from '../realtime/hub';
import { createWallets, levelNameOf, UserType } from '../users/users';
import type { CallEngine, CallRow, Outbox } from './billing';
import type { Idempotency } from './idempotency';
import { PERSON_COLUMNS, PERSON_FROM, pageWindow, type PersonRow } from './person-summary';
import { ApiError, requireSession, type ApiContext, type HandlersOf } from './transport';

export type CallHandlerRealtimeDeps = Pick<RealtimeHub, 'signal' | 'presence'>;

const refuse = (message: string) => new ApiError(ResultCode.invalidRequest, message);

interface Party {
  id: number;
  user_type: UserType;
  user_level: number;
  is_vip: 0 | 1;
  yx_accid: string;
}

interface RecordRow {
  channel_id: string;
  caller_id: number;
  call_type: number;
  status: number;
  price: number;
  created_at: number;
  connected_at: number | null;
  ended_at: number | null;
  hangup_reason: number | null;
  ended_by: number | null;
  end_cause: string | null;
  periods: number;
  call_income: number;
  gift_income: number;
  peer_id: number;
  peer_accid: string;
  peer_nickname: string;
  peer_icon: string;
  peer_type: number;
}

export function callHandlers(
  { db, calls, realtime, keys }: { db: Db; calls: CallEngine; realtime: CallHandlerRealtimeDeps; keys: Idempotency },
): HandlersOf<typeof call> {
  const wallets = createWallets(db);
  const party = db.prepare<[number], Party>('SELECT id, user_type, user_level, is_vip, yx_accid FROM users WHERE id = ?');
  const person = db.prepare<{ caller: number; id: number }, PersonRow>(`SELECT ${PERSON_COLUMNS} FROM ${PERSON_FROM} WHERE u.id = @id`);
  const blocks = db.prepare<[number, number], 1>('SELECT 1 FROM user_blocks WHERE blocker_id = ? AND blocked_id = ?').pluck();
  const liveWithoutCalls = db.prepare<[number], 1>(
    'SELECT 1 FROM live_rooms WHERE user_id = ? AND state = 0 AND private_call_open = 0',
  ).pluck();
  const configValue = appConfig(db);
  const rate = db.prepare<{ call: number; user: number; callType: number; category: number; answerTime: number; userType: number; abnormal: number; time: number }>(
    `INSERT INTO call_ratings (call_id, user_id, call_type, category, answer_time, user_type, abnormal, created_at)
     VALUES (@call, @user, @callType, @category, @answerTime, @userType, @abnormal, @time)
     ON CONFLICT (call_id, user_id) DO UPDATE SET call_type = @callType, category = @category, answer_time = @answerTime,
       user_type = @userType, abnormal = @abnormal, created_at = @time`,
  );
  const RECORD_SELECT = `SELECT c.channel_id, c.caller_id, c.call_type, c.status, c.price, c.created_at, c.connected_at, c.ended_at,
      c.hangup_reason, c.ended_by, c.end_cause, c.periods, c.call_income, c.gift_income,
      p.id AS peer_id, p.yx_accid AS peer_accid, p.nickname AS peer_nickname, p.icon AS peer_icon, p.user_type AS peer_type
    FROM calls c JOIN users p ON p.id = CASE WHEN c.caller_id = @me THEN c.callee_id ELSE c.caller_id END`;
  const recordPage = db.prepare<{ me: number; limit: number; offset: number }, RecordRow>(
    `${RECORD_SELECT} WHERE c.caller_id = @me OR c.callee_id = @me ORDER BY c.created_at DESC, c.id DESC LIMIT @limit OFFSET @offset`,
  );
  const recordCount = db.prepare<{ me: number }, number>('SELECT count(*) FROM calls WHERE caller_id = @me OR callee_id = @me').pluck();
  const recordOf = db.prepare<{ me: number; channel: string }, RecordRow>(
    `${RECORD_SELECT} WHERE c.channel_id = @channel AND @me IN (c.caller_id, c.callee_id)`,
  );

  /** The VIP shop's callDiscount (percent paid); 100 when unset or not 1–100. */
  function vipDiscount(): number {
    const value = Number(configValue.get(VIP_CALL_DISCOUNT_KEY));
    return Number.isInteger(value) && value >= 1 && value <= 100 ? value : 100;
  }

  /** The VIP discount a payer gets (percent paid, SPEC §6), or undefined when none applies. */
  function discountOf(payer: Pick<Party, 'is_vip'>): number | undefined {
    const discount = vipDiscount();
    return payer.is_vip === 1 && discount < 100 ? discount : undefined;
  }

  /** Can the callee take a call now? Presence online or busy, or signalling up and the app not hidden. */
  function reachable(callee: PersonRow): boolean {
    if (callee.grp === OnlineGroupStatus.online || callee.grp === OnlineGroupStatus.busy) return true;
    const presence = realtime.presence.statusOf(callee.id);
    return realtime.signal.isOnline(callee.yx_accid) && presence?.status !== PresenceCode.background;
  }

  /** The caller's call by channel; TEXT_CALL_NOT_FOUND for anyone not in it. */
  function partyCall(channelId: string, userId: number): CallRow {
    const row = calls.byChannel(channelId);
    if (!row || (row.caller_id !== userId && row.callee_id !== userId)) throw refuse(TEXT_CALL_NOT_FOUND);
    return row;
  }

  /** SPEC §4 hangup reasons as `me` sees the call's end: 1 mine, 2 the other party's, 6 weak network for both. */
  const readersReason = (row: RecordRow, me: number): number | null => {
    if (row.hangup_reason !== HangupReason.local || row.ended_by === null) return row.hangup_reason;
    return row.ended_by === me ? HangupReason.local : HangupReason.remote;
  };

  const toRecord = (row: RecordRow, me: number): z.input<typeof CallRecord> => ({
    channelId: row.channel_id,
    callInOrOut: row.caller_id === me ? 'out' : 'in',
    callType: row.call_type,
    status: row.status,
    callUserId: row.peer_id,
    yxAccid: row.peer_accid,
    nickname: row.peer_nickname,
    icon: row.peer_icon,
    userType: row.peer_type,
    videoPrice: row.price,
    callStartTime: row.created_at,
    callConnectTime: row.connected_at,
    callEndTime: row.ended_at,
    callDuration: row.connected_at === null ? 0 : Math.floor(((row.ended_at ?? Date.now()) - row.connected_at) / 1000),
    hangupReason: readersReason(row, me),
    endCause: row.end_cause,
    periods: row.periods,
    callIncome: row.call_income,
    callGiftIncome: row.gift_income,
  });

  /** Places the call of a createCall (the rules are the contract's); its pushes and timers go on `after`. */
  function placeCall(ctx: ApiContext<typeof call.createCall>, after: Outbox): z.input<typeof CallInfo> {
    const me = requireSession(ctx).userId;
    const { beCallUserId, callType } = ctx.body;
    if (beCallUserId === me) throw refuse(TEXT_CALL_SELF);
    const caller = party.get(me);
    const callee = person.get({ caller: me, id: beCallUserId });
    if (!caller || !callee) throw refuse(MESSAGE_NO_MATCH_USER);

    let payer: Party;
    let hostId: number;
    if (caller.user_type === UserType.user && callee.user_type === UserType.host) {
      [payer, hostId] = [caller, callee.id];
    } else if (caller.user_type === UserType.host && callee.user_type === UserType.user) {
      if (!configValue.hostCanCall(caller.user_level)) throw refuse(TEXT_HOST_CANNOT_CALL);
      [payer, hostId] = [party.get(callee.id)!, caller.id];
    } else {
      throw refuse(TEXT_CALL_PAIR);
    }

    if (blocks.get(callee.id, me) === 1 || !reachable(callee)) {
      throw new ApiError(CallRefusalCode.unavailable, TEXT_CALL_UNAVAILABLE);
    }
    // The engine checks again in the transaction that stores the call; this one answers before the balance.
    const calleeCall = calls.openCallOf(callee.id);
    const ownCall = calleeCall !== undefined && (calleeCall.caller_id === me || calleeCall.callee_id === me);
    if ((calleeCall !== undefined && !ownCall) || liveWithoutCalls.get(callee.id) === 1) {
      throw new ApiError(CallRefusalCode.busy, TEXT_CALL_BUSY);
    }

    const listPrice = hostId === callee.id ? callee.video_price : person.get({ caller: me, id: hostId })!.video_price;
    const discount = discountOf(payer);
    const price = discount === undefined ? listPrice : discountedPrice(listPrice, discount);
    if (wallets.diamonds(payer.id) < price) throw new ApiError(CallRefusalCode.balance, MESSAGE_DIAMOND_NOT_ENOUGH);

    const row = calls.open({ callerId: me, calleeId: callee.id, payerId: payer.id, hostId, callType, price, listPrice }, after);
    return {
      channelId: row.channel_id,
      yxAccid: callee.yx_accid,
      videoPrice: price,
      ...(callee.country_code !== null ? { countryCode: callee.country_code } : {}),
      nickname: callee.nickname,
      ...(callee.age !== null ? { age: callee.age } : {}),
      icon: callee.icon,
      userType: callee.user_type,
      followed: callee.followed === 1,
      levelName: levelNameOf(callee.user_level),
      callUserId: callee.id,
      callType,
      listPrice,
      billingPeriodMs: calls.billingPeriodMs,
      ringTimeoutMs: calls.ringTimeout(),
      // Only the payer's own balance: a host who calls a user is not told the user's.
      ...(payer.id === me ? { balance: wallets.diamonds(me) } : {}),
      ...(discount === undefined ? {} : { callDiscount: discount }),
    };
  }

  return {
    createCall(ctx) {
      // The same request again (a replay, a retry after a lost answer) answers the call it made.
      return keys.once(ctx, call.createCall, () => {
        const after: Outbox = [];
        return { answer: placeCall(ctx, after), after: () => after.forEach((run) => run()) };
      });
    },

    joinCall(ctx) {
      return keys.once<z.input<typeof call.joinCall.response>>(ctx, call.joinCall, () => {
        const me = requireSession(ctx).userId;
        const row = partyCall(ctx.body.searchValue, me);
        if (row.callee_id !== me) throw refuse(TEXT_NOT_CALLEE);
        if (row.status === CallStatus.inProgress) return { answer: {} };
        if (row.status !== CallStatus.calling) throw refuse(TEXT_CALL_ENDED);
        const after: Outbox = [];
        const done = () => after.forEach((run) => run());
        // Short of the first period: the call ends (committed), and the refusal is not stored, as no money moved.
        if (calls.join(row.id, after) === 'short') {
          return { refusal: new ApiError(ResultCode.balanceInsufficient, MESSAGE_DIAMOND_NOT_ENOUGH), after: done };
        }
        return { answer: {}, after: done };
      });
    },

    callTerms(ctx) {
      const me = requireSession(ctx).userId;
      const row = partyCall(ctx.body.searchValue, me);
      const youPay = row.payer_id === me;
      // The discount the call was priced with: the payer's, when the stored price is below the list price.
      const discount = row.price < row.list_price ? discountOf(party.get(row.payer_id) ?? { is_vip: 0 }) : undefined;
      return {
        videoPrice: row.price,
        listPrice: row.list_price,
        ...(discount === undefined ? {} : { callDiscount: discount }),
        billingPeriodMs: calls.billingPeriodMs,
        youPay,
        ...(youPay ? { balance: wallets.diamonds(me) } : {}),
      };
    },

    endCall(ctx) {
      const me = requireSession(ctx).userId;
      const row = partyCall(ctx.body.channelId, me);
      calls.hangUp(row, me, ctx.body.hangupReason);
      return {};
    },

    callRate(ctx) {
      const me = requireSession(ctx).userId;
      const row = partyCall(ctx.body.channelId, me);
      const { callType, category, answerTime, userType, abnormal } = ctx.body;
      rate.run({ call: row.id, user: me, callType, category, answerTime, userType, abnormal, time: Date.now() });
      return {};
    },

    callRecordList(ctx) {
      const me = requireSession(ctx).userId;
      const { currentPage, pageSize } = ctx.body;
      const rows = recordPage.all({ me, ...pageWindow(currentPage, pageSize) });
      return { list: rows.map((r) => toRecord(r, me)), total: recordCount.get({ me }) ?? 0, currentPage, pageSize };
    },

    callRecordDetail(ctx) {
      const me = requireSession(ctx).userId;
      const row = recordOf.get({ me, channel: ctx.body.searchValue });
      if (!row) throw refuse(TEXT_CALL_NOT_FOUND);
      return toRecord(row, me);
    },
  };
}
