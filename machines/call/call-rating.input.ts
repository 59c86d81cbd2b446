/**
 * Whether an ended call is rated, and with what (SPEC §3 Call rating payload): a leaf, so the
 * calls decide it in their end state while the rating machine's code comes with the call's.
 */
import { UserType } from '../codes/user.codes';
import type { CallSummary } from './call.types';

export interface CallRatingInput {
  channelId: string;
  callType: number;
  /** Seconds the call lasted. */
  answerTime: number;
  /** SPEC §3 userType of the one rating. */
  userType: number;
}

/** The rating of an ended call, or null when it cannot be rated (it never connected, or has no channel). */
export function ratingInputOf(summary: Pick<CallSummary, 'channelId' | 'callType' | 'answerTime'>, isHost: boolean): CallRatingInput | null {
  if (summary.answerTime <= 0 || summary.channelId === null) return null;
  return { channelId: summary.channelId, callType: summary.callType, answerTime: summary.answerTime, userType: isHost ? UserType.host : UserType.user };
}
