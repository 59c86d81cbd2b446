/**
 * Handlers of src/api/contract/gift.ts: the gift list, sending a gift (to a host, in a call or
 * not), a host asking the user of a call for a gift, and the user refusing. Sending is one
 * SQLite transaction like a call period's (billing.ts): the send row, the diamonds taken with
 * the conditional UPDATE (a short balance throws, which undoes everything), the host's income,
 * the call's gift income and the stored notifications; pushes go out after the commit. A gift
 * in a live room (live.rooms.ts) also pays the host's gift task in the same transaction, and
 * is posted into the room's chat after the commit. A send is idempotent (idempotency.ts): its
 * key and answer are stored in that same transaction, and a replay pays, pushes and posts nothing.
 */
import type * as z from 'zod/mini';
import { AttachType } from '../../machines/system-messages/system-messages';
import { MESSAGE_DIAMOND_NOT_ENOUGH, MESSAGE_NO_MATCH_USER, ResultCode } from '../../src/api/codes';
import { gift } from '../../src/api/contract';
import { CallStatus } from '../../src/api/contract/call';
import {
  ASK_GIFT_ATTACH_TYPE, ASK_GIFT_COOLDOWN_MS, TEXT_ASK_COOLDOWN, TEXT_ASK_HOSTS_ONLY, TEXT_ASK_NOT_FOUND, TEXT_GIFT_HOSTS_ONLY,
  TEXT_GIFT_NOT_FOUND, TEXT_GIFT_NOT_IN_CALL, TEXT_GIFT_NOT_IN_LIVE, TEXT_GIFT_ONE_SCENE, TEXT_GIFT_TO_SELF,
  type GiftAskNotice, type GiftAskRefusedNotice, type GiftCategory, type GiftIncomeNotice, type GiftReceivedNotice,
} from '../../src/api/contract/gift';
import type { Db } from '../db/database';
import type { RealtimeHub } from '../realtime/hub';
import { createImStore } from '../realtime/im.store';
import { createWallets, UserType } from '../users/users';
import { giftIconUrl, giftSmallUrl, type GiftPicture } from '../web/gifts';
import { CallFlowReason, type CallEngine, type CallRow } from './billing';
import type { Idempotency, Moved } from './idempotency';
import type { LiveEngine, LiveRoomRow } from './live.rooms';
import { ApiError, requireSession, type ApiContext, type HandlersOf } from './transport';

export type GiftRealtimeDeps = Pick<RealtimeHub, 'im'>;

const refuse = (message: string) => new ApiError(ResultCode.invalidRequest, message);

interface GiftRow {
  id: number;
  name: string;
  price: number;
  img_key: GiftPicture;
}

interface Person {
  id: number;
  user_type: UserType;
  yx_accid: string;
  nickname: string;
  is_vip: 0 | 1;
  is_new_user: 0 | 1;
  user_level: number;
}

interface AskRow {
  id: number;
  call_id: number;
  host_id: number;
  user_id: number;
  gift_id: number;
  state: 0 | 1 | 2;
  channel_id: string;
  host_accid: string;
  user_accid: string;
}

class ShortBalance extends Error {}

type Notice = GiftIncomeNotice | GiftReceivedNotice | GiftAskNotice | GiftAskRefusedNotice;

export function giftHandlers(
  { db, calls, live, realtime, keys }: { db: Db; calls: CallEngine; live: LiveEngine; realtime: GiftRealtimeDeps; keys: Idempotency },
): HandlersOf<typeof gift> {
  const wallets = createWallets(db);
  const imStore = createImStore(db);
  const listed = db.prepare<{ min: number | null; max: number | null }, GiftRow & { category_id: number; category_name: string }>(
    `SELECT c.id AS category_id, c.name AS category_name, g.id, g.name, g.price, g.img_key
       FROM gift_categories c JOIN gift_category_items i ON i.category_id = c.id JOIN gifts g ON g.id = i.gift_id
      WHERE g.enabled = 1 AND (@min IS NULL OR g.price >= @min) AND (@max IS NULL OR g.price <= @max)
      ORDER BY c.sort, c.id, g.price, g.id`,
  );
  const giftById = db.prepare<[number], GiftRow>('SELECT id, name, price, img_key FROM gifts WHERE id = ? AND enabled = 1');
  const PERSON = 'SELECT id, user_type, yx_accid, nickname, is_vip, is_new_user, user_level FROM users';
  const personById = db.prepare<[number], Person>(`${PERSON} WHERE id = ?`);
  const personByAccid = db.prepare<[string], Person>(`${PERSON} WHERE yx_accid = ?`);
  const insertSend = db.prepare<{ sender: number; host: number; gift: number; num: number; value: number; call: number | null; room: number | null; time: number }>(
    `INSERT INTO gift_sends (sender_id, host_id, gift_id, gift_num, value, call_id, live_room_id, created_at)
     VALUES (@sender, @host, @gift, @num, @value, @call, @room, @time)`,
  );
  const roomIsLive = db.prepare<[number], 1>('SELECT 1 FROM live_rooms WHERE id = ? AND state = 0').pluck();
  const addCallGift = db.prepare<{ id: number; value: number }, number>(
    `UPDATE calls SET gift_income = gift_income + @value WHERE id = @id AND status = ${CallStatus.inProgress} RETURNING gift_income`,
  ).pluck();
  const fulfil = db.prepare<{ call: number; gift: number }>('UPDATE gift_asks SET state = 2 WHERE call_id = @call AND gift_id = @gift AND state = 0');
  const lastAsk = db.prepare<[number], number>('SELECT max(created_at) FROM gift_asks WHERE call_id = ?').pluck();
  const insertAsk = db.prepare<{ call: number; host: number; user: number; gift: number; time: number }>(
    'INSERT INTO gift_asks (call_id, host_id, user_id, gift_id, created_at) VALUES (@call, @host, @user, @gift, @time)',
  );
  const askById = db.prepare<[number], AskRow>(
    `SELECT a.id, a.call_id, a.host_id, a.user_id, a.gift_id, a.state, c.channel_id, h.yx_accid AS host_accid, u.yx_accid AS user_accid
       FROM gift_asks a JOIN calls c ON c.id = a.call_id JOIN users h ON h.id = a.host_id JOIN users u ON u.id = a.user_id
      WHERE a.id = ?`,
  );
  const refuseAsk = db.prepare<[number]>('UPDATE gift_asks SET state = 1 WHERE id = ? AND state = 0');

  /** Stores a system notification now (in the surrounding transaction, from the system sender) and returns its push, for after the commit. */
  function notice(to: string, content: Notice): () => void {
    const item = imStore.system(to, content);
    return () => realtime.im.connectionOf(to)?.push(item);
  }

  const send = db.transaction((args: {
    sender: Person; host: Person; gift: GiftRow; num: number; call: CallRow | undefined; room: LiveRoomRow | undefined;
  }): { balance: number; callGiftIncome: number | undefined; sendId: number; pushes: (() => void)[] } => {
    const { sender, host, gift: g, num, call, room } = args;
    const value = g.price * num;
    const time = Date.now();
    // Checked again here: a room that ended since the look-up takes no gift.
    if (room && roomIsLive.get(room.id) !== 1) throw refuse(TEXT_GIFT_NOT_IN_LIVE);
    const sendId = Number(insertSend.run({
      sender: sender.id, host: host.id, gift: g.id, num, value, call: call?.id ?? null, room: room?.id ?? null, time,
    }).lastInsertRowid);
    const balance = wallets.spend(sender.id, value, CallFlowReason.giftPaid, sendId);
    if (balance === undefined) throw new ShortBalance();
    wallets.earn(host.id, 'income', value, CallFlowReason.giftIncome, sendId);
    const pushes: (() => void)[] = [];
    if (room) {
      live.payGiftTask(host.id, time);
      // No attachType 18: it adds to a call's gift income, and the host may be in a private call from the room.
      return { balance, callGiftIncome: undefined, sendId, pushes };
    }
    pushes.push(notice(host.yx_accid, {
      attachType: AttachType.giftIncome, num: value, giftId: g.id, giftNum: num, ...(call ? { channelId: call.channel_id } : {}),
    }));
    let callGiftIncome: number | undefined;
    if (call) {
      // Checked again here: a call that ended since the look-up takes no gift.
      callGiftIncome = addCallGift.get({ id: call.id, value });
      if (callGiftIncome === undefined) throw refuse(TEXT_GIFT_NOT_IN_CALL);
      fulfil.run({ call: call.id, gift: g.id });
      pushes.push(notice(host.yx_accid, {
        attachType: AttachType.giftReceivedInCall, giftId: g.id, giftImg: giftIconUrl(g.img_key), giftNum: num, giftName: g.name,
        channelId: call.channel_id, fromYxAccid: sender.yx_accid, fromNick: sender.nickname,
      }));
    }
    return { balance, callGiftIncome, sendId, pushes };
  });

  const run = (pushes: (() => void)[]) => pushes.forEach((push) => push());

  /** One send: checks, then the transaction (`send`); its pushes and the room's post go after the commit. */
  function sendOnce(ctx: ApiContext<typeof gift.sendGift>): Moved<z.input<typeof gift.sendGift.response>> {
    const me = requireSession(ctx).userId;
    const { channelId, yxRoomId, toUserId, giftId, giftNum } = ctx.body;
    if (channelId !== undefined && yxRoomId !== undefined) throw refuse(TEXT_GIFT_ONE_SCENE);
    const g = giftById.get(giftId);
    if (!g) throw refuse(TEXT_GIFT_NOT_FOUND);
    if (toUserId === me) throw refuse(TEXT_GIFT_TO_SELF);
    const sender = personById.get(me);
    const host = personById.get(toUserId);
    if (!sender || !host) throw refuse(MESSAGE_NO_MATCH_USER);
    if (host.user_type !== UserType.host) throw refuse(TEXT_GIFT_HOSTS_ONLY);
    let call: CallRow | undefined;
    if (channelId !== undefined) {
      call = calls.byChannel(channelId);
      const parties = call && [call.caller_id, call.callee_id];
      if (!call || call.status !== CallStatus.inProgress || !parties!.includes(me) || !parties!.includes(host.id)) {
        throw refuse(TEXT_GIFT_NOT_IN_CALL);
      }
    }
    let room: LiveRoomRow | undefined;
    if (yxRoomId !== undefined) {
      room = live.liveByYxRoom(yxRoomId);
      if (!room || room.user_id !== host.id) throw refuse(TEXT_GIFT_NOT_IN_LIVE);
    }
    let result: ReturnType<typeof send>;
    try {
      result = send({ sender, host, gift: g, num: giftNum, call, room });
    } catch (err) {
      if (err instanceof ShortBalance) throw new ApiError(ResultCode.balanceInsufficient, MESSAGE_DIAMOND_NOT_ENOUGH);
      throw err;
    }
    const answer = {
      giftId: g.id,
      giftNum,
      giftImg: giftIconUrl(g.img_key),
      value: g.price * giftNum,
      balance: result.balance,
      ...(result.callGiftIncome !== undefined ? { callGiftIncome: result.callGiftIncome } : {}),
    };
    return {
      answer,
      after: () => {
        run(result.pushes);
        if (room) live.postGift(room, { sender, gift: g, num: giftNum, sendId: result.sendId });
      },
    };
  }

  return {
    getGiftList(ctx) {
      requireSession(ctx);
      const rows = listed.all({ min: ctx.body.minPrice ?? null, max: ctx.body.maxPrice ?? null });
      const byCategory = new Map<number, z.input<typeof GiftCategory>>();
      for (const row of rows) {
        let category = byCategory.get(row.category_id);
        if (!category) byCategory.set(row.category_id, (category = { categoryId: row.category_id, categoryName: row.category_name, gifts: [] }));
        category.gifts.push({
          id: row.id, name: row.name, giftPrice: row.price, giftSmallImg: giftSmallUrl(row.img_key), giftIcon: giftIconUrl(row.img_key),
        });
      }
      return { giftList: [...byCategory.values()] };
    },

    sendGift(ctx) {
      // The same send again (a replay, a retry after a lost answer) answers as the first did and pays nothing.
      return keys.once(ctx, gift.sendGift, () => sendOnce(ctx));
    },

    askForGift(ctx) {
      const session = requireSession(ctx);
      if (session.userType !== UserType.host) throw refuse(TEXT_ASK_HOSTS_ONLY);
      const g = giftById.get(ctx.body.giftId);
      if (!g) throw refuse(TEXT_GIFT_NOT_FOUND);
      const user = personByAccid.get(ctx.body.beAskYxAccid);
      if (!user) throw refuse(MESSAGE_NO_MATCH_USER);
      const call = calls.openCallOf(session.userId);
      if (!call || call.status !== CallStatus.inProgress || call.host_id !== session.userId || call.payer_id !== user.id) {
        throw refuse(TEXT_GIFT_NOT_IN_CALL);
      }
      const host = personById.get(session.userId)!;
      const now = Date.now();
      const last = lastAsk.get(call.id);
      if (last !== null && last !== undefined && now - last < ASK_GIFT_COOLDOWN_MS) {
        const seconds = Math.ceil((last + ASK_GIFT_COOLDOWN_MS - now) / 1000);
        throw refuse(TEXT_ASK_COOLDOWN.replace('{s}', String(seconds)));
      }
      const { askId, push } = db.transaction(() => {
        const id = Number(insertAsk.run({ call: call.id, host: host.id, user: user.id, gift: g.id, time: now }).lastInsertRowid);
        return {
          askId: id,
          push: notice(user.yx_accid, {
            attachType: ASK_GIFT_ATTACH_TYPE, askId: id, channelId: call.channel_id, giftId: g.id, giftName: g.name,
            giftImg: giftIconUrl(g.img_key), giftPrice: g.price, fromYxAccid: host.yx_accid, fromNick: host.nickname,
          }),
        };
      })();
      push();
      return { askId, channelId: call.channel_id, nextAskAt: now + ASK_GIFT_COOLDOWN_MS };
    },

    refuseAskGift(ctx) {
      const me = requireSession(ctx).userId;
      const ask = askById.get(ctx.body.askId);
      if (!ask || ask.user_id !== me) throw refuse(TEXT_ASK_NOT_FOUND);
      const push = db.transaction(() => {
        if (refuseAsk.run(ask.id).changes === 0) return undefined;
        return notice(ask.host_accid, {
          attachType: AttachType.askGiftRefused, askId: ask.id, channelId: ask.channel_id, giftId: ask.gift_id,
        });
      })();
      push?.();
      return { refused: push !== undefined };
    },
  };
}
