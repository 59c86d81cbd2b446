/**
 * The rule every request that moves money follows: it carries an idempotency key, one per
 * intent of the person, so that a request received twice moves money once.
 *
 * Which requests: the gift send (/api/gift/send, in a call and in a live room), createCall and
 * joinCall (joinCall charges the call's first period), and the secret-message payment
 * (privateInfo with `pay: true`); every order, recharge and withdrawal follows the same rule.
 * Their request schema has the field `idempotencyKey` (IdempotencyKey below), required.
 *
 * Why a key: the transport's AES key and IV are fixed (SPEC §5), so two equal requests are the
 * same bytes, and the server cannot tell a replay, or a client's retry after a lost answer,
 * from a second intent. The key is inside the encrypted body: a replay carries it, and two
 * intents alike in everything else are no longer the same bytes.
 *
 * - The client makes a key where the person's intent is taken (a tap on Send, on Call, on
 *   Answer, on Unlock), random (a UUID), and keeps it for the intent's life: a double tap is
 *   one intent (one request), a retry after a lost answer (no answer, a time-out, a server
 *   failure) sends the same key with the same request. A definitive answer, success or
 *   refusal, ends the intent: the next tap makes a new key.
 * - The server scopes a key to (user, endpoint, key): another person's key, or the same key on
 *   another endpoint, is another request.
 * - A success is stored with its key in the same transaction as the money it moved. A request
 *   whose key is stored, with the same body (the key aside), is a replay: it moves nothing and
 *   gets the stored answer, whatever happened since (a call ended since, a balance spent).
 * - The same key with another body is refused: code 1000 (ResultCode.invalidRequest) with
 *   TEXT_IDEMPOTENCY_KEY_REUSED; nothing moves and the stored answer stays.
 * - A refusal (not enough diamonds, a call that ended, …) moves no money and is not stored:
 *   a retry after a refusal is evaluated again, and still cannot charge twice (only a success
 *   is stored, and its key then answers every retry).
 * - Keys expire IDEMPOTENCY_WINDOW_MS after their success and are purged: a retry comes
 *   within seconds or minutes (the client's 30 s time-out, a reload, a phone that slept), and
 *   an intent lives no longer than the screen it was taken on, so a day covers every retry
 *   with a wide margin while the store holds no more than a day of money requests. A request
 *   older than the window is a new request: the window must stay longer than any retry.
 */
import * as z from 'zod/mini';

/** 24 hours (see above). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export const IDEMPOTENCY_KEY_MIN = 16;
export const IDEMPOTENCY_KEY_MAX = 64;

export const TEXT_IDEMPOTENCY_KEY_REUSED = 'This request was already made with other details. Please try again.';

/** A client-made key: 16–64 characters of [A-Za-z0-9_-] (a UUID is 36). */
export const IdempotencyKey = z.string().check(
  z.minLength(IDEMPOTENCY_KEY_MIN), z.maxLength(IDEMPOTENCY_KEY_MAX), z.regex(/^[A-Za-z0-9_-]+$/),
);
