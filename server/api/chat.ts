/**
 * Handlers of src/api/contract/chat.ts: blocking (through the hub's `blocks`, the one
 * `user_blocks` table the IM reads when it refuses a blocked sender with 7101), the
 * customer-service common problems, the feedback types and feedback.
 */
import { MESSAGE_NO_MATCH_USER, ResultCode } from '../../src/api/codes';
import type { chat } from '../../src/api/contract';
import {
  FEEDBACK_CONTACT_MAX, FEEDBACK_CONTENT_MAX, FEEDBACK_CONTENT_MIN, TEXT_CANNOT_BLOCK_CUSTOMER_SERVICE, TEXT_CANNOT_BLOCK_SELF,
  TEXT_CONTACT_TOO_LONG,
  TEXT_FEEDBACK_TOO_LONG, TEXT_FEEDBACK_TOO_SHORT, TEXT_FEEDBACK_TYPE_UNKNOWN,
} from '../../src/api/contract/chat';
import type { Db } from '../db/database';
import type { RealtimeHub } from '../realtime/hub';
import { ApiError, requireSession, type HandlersOf } from './transport';

export type ChatRealtimeDeps = Pick<RealtimeHub, 'blocks'>;

const refuse = (message: string) => new ApiError(ResultCode.invalidRequest, message);

/** Length in characters as a person counts them (code points, so an emoji is one). */
const length = (text: string) => [...text].length;

export function chatHandlers({ db, realtime }: { db: Db; realtime: ChatRealtimeDeps }): HandlersOf<typeof chat> {
  const userById = db.prepare<[number], { id: number; yx_accid: string }>('SELECT id, yx_accid FROM users WHERE id = ?');
  const userByAccid = db.prepare<[string], { id: number; yx_accid: string }>('SELECT id, yx_accid FROM users WHERE yx_accid = ?');
  const isCustomerService = db.prepare<[string], 1>('SELECT 1 FROM customer_service WHERE yx_accid = ?').pluck();
  const problems = db.prepare<[number], { id: number; problem: string; reply: string }>(
    'SELECT id, problem, reply FROM customer_problems WHERE audience IN (0, ?) ORDER BY sort, id',
  );
  const feedbackTypes = db.prepare<[], { id: number; name: string }>('SELECT id, name FROM feedback_types ORDER BY sort, id');
  const feedbackTypeExists = db.prepare<[number], 1>('SELECT 1 FROM feedback_types WHERE id = ?').pluck();
  const insertFeedback = db.prepare<[number, number, string, string | null, string, number]>(
    'INSERT INTO feedback (user_id, type_id, content, contact, app_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );

  /**
   * The app user a block request names. Customer service is refused in words (nobody blocks it);
   * anyone else who is not an app user is 'no.match.user' (SPEC §8).
   */
  function target(body: { beBlockUserId?: number | undefined; beBlockYxAccid?: string | undefined }, caller: number) {
    if (body.beBlockYxAccid !== undefined && isCustomerService.get(body.beBlockYxAccid)) throw refuse(TEXT_CANNOT_BLOCK_CUSTOMER_SERVICE);
    const user = body.beBlockUserId !== undefined ? userById.get(body.beBlockUserId) : userByAccid.get(body.beBlockYxAccid ?? '');
    if (!user) throw refuse(MESSAGE_NO_MATCH_USER);
    if (user.id === caller) throw refuse(TEXT_CANNOT_BLOCK_SELF);
    return user;
  }

  return {
    blockUser(ctx) {
      const caller = requireSession(ctx).userId;
      const user = target(ctx.body, caller);
      realtime.blocks.block(caller, user.id);
      return { userId: user.id, yxAccid: user.yx_accid, blocked: true };
    },

    removeBlockUser(ctx) {
      const caller = requireSession(ctx).userId;
      const user = target(ctx.body, caller);
      realtime.blocks.unblock(caller, user.id);
      return { userId: user.id, yxAccid: user.yx_accid, blocked: false };
    },

    getCustomerReplyInfo(ctx) {
      return { problemReply: problems.all(requireSession(ctx).userType) };
    },

    getFeedbackType() {
      return feedbackTypes.all();
    },

    getAnchorFeedbackSubmit(ctx) {
      const userId = requireSession(ctx).userId;
      const content = ctx.body.content.trim();
      const contact = ctx.body.contact?.trim() || null;
      if (!feedbackTypeExists.get(ctx.body.feedbackType)) throw refuse(TEXT_FEEDBACK_TYPE_UNKNOWN);
      if (length(content) < FEEDBACK_CONTENT_MIN) throw refuse(TEXT_FEEDBACK_TOO_SHORT);
      if (length(content) > FEEDBACK_CONTENT_MAX) throw refuse(TEXT_FEEDBACK_TOO_LONG);
      if (contact !== null && length(contact) > FEEDBACK_CONTACT_MAX) throw refuse(TEXT_CONTACT_TOO_LONG);
      const id = insertFeedback.run(userId, ctx.body.feedbackType, content, contact, ctx.appId, Date.now()).lastInsertRowid;
      return { id: Number(id) };
    },
  };
}
