/**
 * Paid private ("secret") messages (SPEC §3 Message ext `extensionType: 'privateMsg'`, §9
 * preview '[Secret Message]', §7 /api/payPrivateMsg/uploadPrivateInfo and privateInfo).
 *
 * A host stores the content with a price in diamonds for one recipient and sends the
 * answer's `ext` in an IM message to them. The recipient's talk screen shows
 * '[Secret Message]'; `privateInfo` shows the price, and with `pay: true` takes the
 * diamonds once (never twice, never below zero) and answers the content. Paying again, or
 * looking again later, is free. The host's income grows by the price. The payment carries an
 * idempotency key (src/api/contract/idempotency.ts).
 */
import * as z from 'zod/mini';
import { MediaItem } from './session';
import { bodyLimitFor, defineEndpoint } from './endpoint';
import { IdempotencyKey } from './idempotency';

export const PRIVATE_MSG_PRICE_MAX = 10_000;
export const PRIVATE_MSG_TEXT_MAX = 500;
export const PRIVATE_MSG_MEDIA_MAX = 9;

export const TEXT_PRIVATE_HOSTS_ONLY = 'Only hosts can send secret messages.';
export const TEXT_PRIVATE_EMPTY = 'A secret message needs a text or a picture or video.';
export const TEXT_PRIVATE_TO_SELF = 'You cannot send a secret message to yourself.';
export const TEXT_PRIVATE_REFUSED = 'This user does not accept your messages.';
export const TEXT_PRIVATE_NOT_FOUND = 'This secret message does not exist.';
export const TEXT_PRIVATE_MEDIA_INVALID = 'Pictures and videos must be uploaded files or https links to an approved media server.';

/** What goes into the IM message's `ext` (SPEC §3 Message ext: extensionType, data). */
export const PrivateMsgExt = z.object({
  extensionType: z.literal('privateMsg'),
  data: z.object({ id: z.number(), price: z.number() }),
});
export type PrivateMsgExt = z.output<typeof PrivateMsgExt>;

/** A https URL or a same-origin path; http is rewritten to https on the way out (SPEC §5). */
const mediaUrl = z.string().check(z.maxLength(1024), z.regex(/^(https?:\/\/[^\s]+|\/[^\s]*)$/i));

export const uploadPrivateInfo = defineEndpoint({
  path: '/api/payPrivateMsg/uploadPrivateInfo',
  method: 'POST',
  auth: 'session',
  // The largest message the server accepts fits: the longest text and a full media list, in any script.
  bodyLimit: bodyLimitFor(64 * 3 + PRIVATE_MSG_TEXT_MAX * 3 + PRIVATE_MSG_MEDIA_MAX * (1024 * 3 + 32) + 128),
  request: z.object({
    /** The recipient's IM account (the talk screen's `to`). */
    to: z.string().check(z.minLength(1), z.maxLength(64)),
    /** Diamonds the recipient pays to see it. */
    price: z.int().check(z.minimum(1), z.maximum(PRIVATE_MSG_PRICE_MAX)),
    content: z.optional(z.string().check(z.maxLength(PRIVATE_MSG_TEXT_MAX))),
    mediaList: z.optional(z.array(z.object({
      mediaType: z.union([z.literal(1), z.literal(2)]),
      mediaUrl,
    })).check(z.maxLength(PRIVATE_MSG_MEDIA_MAX))),
  }),
  response: z.object({ id: z.number(), price: z.number(), ext: PrivateMsgExt }),
});

export const PrivateInfo = z.object({
  id: z.number(),
  senderUserId: z.number(),
  senderYxAccid: z.string(),
  /** The recipient's IM account. */
  to: z.string(),
  price: z.number(),
  /** True for the sender, and for the recipient once paid. */
  unlocked: z.boolean(),
  /** The text; null while locked. */
  content: z.nullable(z.string()),
  /** Empty while locked. */
  mediaList: z.array(MediaItem),
  /** Milliseconds since the epoch. */
  createTime: z.number(),
  /** The caller's diamond balance after this call. */
  balance: z.number(),
});
export type PrivateInfo = z.output<typeof PrivateInfo>;

const privateMsgId = z.int().check(z.minimum(1));

/**
 * Without `pay` (or false): the message as the caller may see it now. With `pay: true`, the
 * recipient pays the price if not yet paid: code 1080 with 'diamond.not.enough' (SPEC §8)
 * when the balance is short, nothing taken. Anyone but the sender and the recipient gets
 * TEXT_PRIVATE_NOT_FOUND. A payment carries an idempotency key, one per tap on Unlock
 * (src/api/contract/idempotency.ts): the same payment again answers as the first did.
 */
export const privateInfo = defineEndpoint({
  path: '/api/payPrivateMsg/privateInfo',
  method: 'POST',
  auth: 'session',
  request: z.union([
    z.object({ id: privateMsgId, pay: z.optional(z.literal(false)) }),
    z.object({ id: privateMsgId, pay: z.literal(true), idempotencyKey: IdempotencyKey }),
  ]),
  response: PrivateInfo,
});
