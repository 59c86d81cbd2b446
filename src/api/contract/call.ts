/**
 * One-to-one calls (SPEC §3 Call info and rating payload, §7 Calls and live, §8 call
 * messages). Billing is the server's: it charges the caller per started period while the
 * call is connected and pushes the host's income (attachTypes 15 and 18).
 *
 * createCall refusals, with the §8 codes that are "resolved with code and message":
 * 1992 the host is in another call ('She is busy on the line. You can call her later.'),
 * 2001 the host is not reachable ("She's not available right now;you can call another girl
 * instead."), 1080 'diamond.not.enough' (less than one period's price). These assignments
 * are the reference server's reading of the catalogue.
 */
import * as z from 'zod/mini';
import { Empty, ImageUrl, defineEndpoint } from './endpoint';

export const CallRefusalCode = { busy: '1992', unavailable: '2001', balance: '1080' } as const;

/** SPEC §3 Call info, as createCall answers it. */
export const CallInfo = z.object({
  channelId: z.string(),
  yxAccid: z.string(),
  videoPrice: z.number(),
  countryCode: z.optional(z.string()),
  nickname: z.string(),
  age: z.optional(z.number()),
  icon: z.optional(ImageUrl),
  userType: z.optional(z.number()),
  followed: z.optional(z.boolean()),
  levelName: z.optional(z.string()),
});

export const createCall = defineEndpoint({
  path: '/api/call/record/v2/createCall',
  method: 'POST',
  auth: 'session',
  /** callType: the signalling action of the call (0 video, 10 audio). */
  request: z.object({ beCallUserId: z.int().check(z.positive()), callType: z.union([z.literal(0), z.literal(10)]) }),
  response: CallInfo,
});

/** The callee takes the call (searchValue: the channel id); billing starts. */
export const joinCall = defineEndpoint({
  path: '/api/call/record/v2/joinCall',
  method: 'POST',
  auth: 'session',
  request: z.object({ searchValue: z.string().check(z.minLength(1), z.maxLength(128)) }),
  response: Empty,
});

/**
 * Reference-server extension (SPEC §7 names no path for it): either side ends the call
 * (hangupReason 1 local, 2 remote, 6 weak network); billing stops. Ending twice is not an error.
 */
export const endCall = defineEndpoint({
  path: '/api/call/record/v2/endCall',
  method: 'POST',
  auth: 'session',
  request: z.object({
    channelId: z.string().check(z.minLength(1), z.maxLength(128)),
    hangupReason: z.union([z.literal(1), z.literal(2), z.literal(6)]),
  }),
  response: Empty,
});

/** SPEC §7 /api/chat/callRate with the §3 Call rating payload (abnormal 0 or 1, SPEC §5). */
export const callRate = defineEndpoint({
  path: '/api/chat/callRate',
  method: 'POST',
  auth: 'session',
  request: z.object({
    channelId: z.string().check(z.minLength(1), z.maxLength(128)),
    callType: z.int(),
    category: z.int().check(z.minimum(0), z.maximum(10)),
    answerTime: z.int().check(z.minimum(0)),
    userType: z.int(),
    abnormal: z.union([z.literal(0), z.literal(1)]),
  }),
  response: Empty,
});
