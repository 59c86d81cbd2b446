/**
 * Handlers of the paid private messages (src/api/contract/private-msg.ts). Paying is one
 * SQLite transaction: record the unlock (its primary key admits one per message and
 * person), take the diamonds with a conditional UPDATE (never below zero), credit the
 * host's income. A short balance throws inside the transaction, which undoes the unlock, so
 * a refused payment leaves nothing behind and a second payment finds the unlock and pays
 * nothing. The payment is idempotent besides (idempotency.ts): its key and answer are stored
 * in the same transaction, and a replay answers what the first payment answered.
 */
import type * as z from 'zod/mini';
import { MESSAGE_DIAMOND_NOT_ENOUGH, MESSAGE_NO_MATCH_USER, ResultCode } from '../../src/api/codes';
import { privateMsg } from '../../src/api/contract';
import { isAllowedMediaUrl } from '../../src/api/contract/media';
import {
  TEXT_PRIVATE_EMPTY, TEXT_PRIVATE_HOSTS_ONLY, TEXT_PRIVATE_MEDIA_INVALID, TEXT_PRIVATE_NOT_FOUND, TEXT_PRIVATE_REFUSED, TEXT_PRIVATE_TO_SELF,
  type PrivateInfo,
} from '../../src/api/contract/private-msg';
import type { MediaItem } from '../../src/api/contract/session';
import type { Db } from '../db/database';
import type { RealtimeHub } from '../realtime/hub';
import { createWallets, UserType } from '../users/users';
import type { Idempotency } from './idempotency';
import { ApiError, requireSession, type HandlersOf } from './transport';

export type PrivateMsgRealtimeDeps = Pick<RealtimeHub, 'blocks'>;

/** The flow reasons this module writes (wallet_flows.reason). */
export const FlowReason = { privateMsgPaid: 'privateMsg.paid', privateMsgIncome: 'privateMsg.income' } as const;

type Media = z.input<typeof MediaItem>;

interface MessageRow {
  id: number;
  sender_id: number;
  sender_accid: string;
  recipient_id: number;
  recipient_accid: string;
  price: number;
  content: string | null;
  media_list: string;
  created_at: number;
  unlocked: 0 | 1;
}

const refuse = (message: string) => new ApiError(ResultCode.invalidRequest, message);

export function privateMsgHandlers(
  { db, realtime, keys, mediaHosts }: { db: Db; realtime: PrivateMsgRealtimeDeps; keys: Idempotency; mediaHosts: readonly string[] },
): HandlersOf<typeof privateMsg> {
  const wallets = createWallets(db);
  const person = db.prepare<[number], { id: number; yx_accid: string }>('SELECT id, yx_accid FROM users WHERE id = ?');
  const recipientByAccid = db.prepare<[string], { id: number }>('SELECT id FROM users WHERE yx_accid = ?');
  const insert = db.prepare<{ sender: number; recipient: number; price: number; content: string | null; media: string; time: number }>(
    `INSERT INTO private_messages (sender_id, recipient_id, price, content, media_list, created_at)
     VALUES (@sender, @recipient, @price, @content, @media, @time)`,
  );
  const message = db.prepare<{ id: number; caller: number }, MessageRow>(
    `SELECT m.id, m.sender_id, s.yx_accid AS sender_accid, m.recipient_id, r.yx_accid AS recipient_accid, m.price,
            m.content, m.media_list, m.created_at,
            EXISTS (SELECT 1 FROM private_message_unlocks u WHERE u.private_message_id = m.id AND u.user_id = @caller) AS unlocked
       FROM private_messages m JOIN users s ON s.id = m.sender_id JOIN users r ON r.id = m.recipient_id
      WHERE m.id = @id AND @caller IN (m.sender_id, m.recipient_id)`,
  );
  const unlock = db.prepare<{ id: number; userId: number; price: number; time: number }>(
    `INSERT INTO private_message_unlocks (private_message_id, user_id, price, created_at)
     VALUES (@id, @userId, @price, @time) ON CONFLICT DO NOTHING`,
  );

  /** Pays for the message once; true when this call paid, false when it had been paid already. */
  const pay = db.transaction((row: MessageRow): boolean => {
    if (unlock.run({ id: row.id, userId: row.recipient_id, price: row.price, time: Date.now() }).changes === 0) return false;
    if (wallets.spend(row.recipient_id, row.price, FlowReason.privateMsgPaid, row.id) === undefined) {
      throw new ApiError(ResultCode.balanceInsufficient, MESSAGE_DIAMOND_NOT_ENOUGH);
    }
    wallets.earn(row.sender_id, 'income', row.price, FlowReason.privateMsgIncome, row.id);
    return true;
  });

  const show = (row: MessageRow, caller: number): z.input<typeof PrivateInfo> => {
    const open = row.sender_id === caller || row.unlocked === 1;
    return {
      id: row.id,
      senderUserId: row.sender_id,
      senderYxAccid: row.sender_accid,
      to: row.recipient_accid,
      price: row.price,
      unlocked: open,
      content: open ? row.content : null,
      mediaList: open ? (JSON.parse(row.media_list) as Media[]) : [],
      createTime: row.created_at,
      balance: wallets.diamonds(caller),
    };
  };

  return {
    uploadPrivateInfo(ctx) {
      const session = requireSession(ctx);
      if (session.userType !== UserType.host) throw refuse(TEXT_PRIVATE_HOSTS_ONLY);
      const content = ctx.body.content?.trim() || null;
      const media = ctx.body.mediaList ?? [];
      if (content === null && media.length === 0) throw refuse(TEXT_PRIVATE_EMPTY);
      // The recipient's app loads these: uploads or the deployment's media hosts only.
      if (media.some((m) => !isAllowedMediaUrl(m.mediaUrl, mediaHosts))) throw refuse(TEXT_PRIVATE_MEDIA_INVALID);
      const recipient = recipientByAccid.get(ctx.body.to);
      if (!recipient) throw refuse(MESSAGE_NO_MATCH_USER);
      if (recipient.id === session.userId) throw refuse(TEXT_PRIVATE_TO_SELF);
      const sender = person.get(session.userId);
      if (!sender) throw refuse(MESSAGE_NO_MATCH_USER);
      // The same rule as the hub's: someone who blocked the sender takes no message from them.
      if (realtime.blocks.blocks(ctx.body.to, sender.yx_accid)) throw refuse(TEXT_PRIVATE_REFUSED);
      const id = Number(insert.run({
        sender: session.userId,
        recipient: recipient.id,
        price: ctx.body.price,
        content,
        media: JSON.stringify(media.map((m): Media => ({ mediaType: m.mediaType, mediaUrl: m.mediaUrl }))),
        time: Date.now(),
      }).lastInsertRowid);
      return { id, price: ctx.body.price, ext: { extensionType: 'privateMsg', data: { id, price: ctx.body.price } } };
    },

    privateInfo(ctx) {
      const caller = requireSession(ctx).userId;
      const find = () => message.get({ id: ctx.body.id, caller });
      const { body } = ctx;
      if (body.pay !== true) {
        const row = find();
        if (!row) throw refuse(TEXT_PRIVATE_NOT_FOUND);
        return show(row, caller);
      }
      // A payment: the same one again (a replay, a retry after a lost answer) answers as the first did.
      return keys.once({ session: ctx.session, body }, privateMsg.privateInfo, () => {
        const row = find();
        if (!row) throw refuse(TEXT_PRIVATE_NOT_FOUND);
        if (row.sender_id !== caller && row.unlocked !== 1) pay(row);
        return { answer: show(find()!, caller) };
      });
    },
  };
}
