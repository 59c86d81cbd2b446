/**
 * Chat around the talk screens (SPEC §2 /talk, /customer-talk, /settings blacklist and
 * feedBack; §7 Users /api/user/blockUser, removeBlockUser; §7 Chat and feedback): blocking a
 * person, the customer-service common problems, feedback types and feedback.
 *
 * Refusals the client shows as they come (SPEC §8 "other codes: message as warning toast")
 * use code 1000 with one of the TEXT_ messages below (customer service has its own); any other
 * target that is not an app user is SPEC §8's 'no.match.user'.
 */
import * as z from 'zod/mini';
import { Empty, defineEndpoint } from './endpoint';

export const TEXT_CANNOT_BLOCK_SELF = 'You cannot block yourself.';
/** The customer-service accounts (/api/im/getCustomerServiceList) are there for everyone: nobody blocks them. */
export const TEXT_CANNOT_BLOCK_CUSTOMER_SERVICE = 'Customer service cannot be blocked.';

/**
 * The person to block: by user id (profiles, lists) or by IM account (the talk screen's
 * `to`), exactly one of the two. SPEC §7 does not name the field; `beBlock…` follows its
 * `beCallUserId` / `beAskYxAccid`.
 */
const BlockTarget = z.object({
  beBlockUserId: z.optional(z.int().check(z.minimum(1))),
  beBlockYxAccid: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
}).check(z.refine((t) => (t.beBlockUserId === undefined) !== (t.beBlockYxAccid === undefined), {
  message: 'Give exactly one of beBlockUserId and beBlockYxAccid.',
}));

/** The person and whether the caller blocks them now. */
const BlockState = z.object({ userId: z.number(), yxAccid: z.string(), blocked: z.boolean() });

/**
 * SPEC §7 /api/user/blockUser: from now on the hub refuses this person's messages to the
 * caller (7101, SPEC §8). Blocking someone already blocked is not an error.
 */
export const blockUser = defineEndpoint({
  path: '/api/user/blockUser',
  method: 'POST',
  auth: 'session',
  request: BlockTarget,
  response: BlockState,
});

/** SPEC §7 /api/user/removeBlockUser: the reverse; removing a block that does not exist is not an error. */
export const removeBlockUser = defineEndpoint({
  path: '/api/user/removeBlockUser',
  method: 'POST',
  auth: 'session',
  request: BlockTarget,
  response: BlockState,
});

export const ProblemReply = z.object({ id: z.number(), problem: z.string(), reply: z.string() });
export type ProblemReply = z.output<typeof ProblemReply>;

/**
 * SPEC §7 /api/chat/common/problem/getCustomerReplyInfo (problemReply): the common problems
 * that /customer-talk offers, each with its canned reply, for the caller's kind (host or user).
 */
export const getCustomerReplyInfo = defineEndpoint({
  path: '/api/chat/common/problem/getCustomerReplyInfo',
  method: 'POST',
  auth: 'session',
  request: Empty,
  response: z.object({ problemReply: z.array(ProblemReply) }),
});

export const FeedbackType = z.object({ id: z.number(), name: z.string() });
export type FeedbackType = z.output<typeof FeedbackType>;

/** SPEC §7 /api/chat/getFeedbackType: the kinds a feedback can be filed under. */
export const getFeedbackType = defineEndpoint({
  path: '/api/chat/getFeedbackType',
  method: 'POST',
  auth: 'session',
  request: Empty,
  response: z.array(FeedbackType),
});

/** Feedback text, counted after trimming. */
export const FEEDBACK_CONTENT_MIN = 5;
export const FEEDBACK_CONTENT_MAX = 500;
export const FEEDBACK_CONTACT_MAX = 100;
export const TEXT_FEEDBACK_TYPE_UNKNOWN = 'Please choose a feedback type.';
export const TEXT_FEEDBACK_TOO_SHORT = `Please describe the problem in at least ${FEEDBACK_CONTENT_MIN} characters.`;
export const TEXT_FEEDBACK_TOO_LONG = `Feedback can be at most ${FEEDBACK_CONTENT_MAX} characters.`;
export const TEXT_CONTACT_TOO_LONG = `Contact details can be at most ${FEEDBACK_CONTACT_MAX} characters.`;

/**
 * SPEC §7 /api/chat/getAnchorFeedbackSubmit: stores a feedback. The lengths above are checked
 * by the server with the clear TEXT_ messages (code 1000); the schema only caps the size.
 */
export const getAnchorFeedbackSubmit = defineEndpoint({
  path: '/api/chat/getAnchorFeedbackSubmit',
  method: 'POST',
  auth: 'session',
  request: z.object({
    /** An id of getFeedbackType. */
    feedbackType: z.int(),
    content: z.string().check(z.maxLength(20_000)),
    /** How to reach the person (email, phone), optional. */
    contact: z.optional(z.string().check(z.maxLength(2_000))),
  }),
  response: z.object({ id: z.number() }),
});
