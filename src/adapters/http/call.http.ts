/**
 * The call's API (machines/ports/call.port.ts) over the HTTP contract (src/api/contract/call.ts):
 * createCall and joinCall refusals become the call's own refusals (CallApiErrors).
 */
import { CallApiError } from '../../../machines/ports/call.port';
import type { CallApiPort } from '../../../machines/ports/call.port';
import type { ApiClient } from '../../api/client';
import * as callContract from '../../api/contract/call';
import { getUserDetail } from '../../api/contract/people';
import { ApiError } from '../../api/outcome';
import { callTypeOf, reportedHangupReason } from '../../../machines/codes/call.codes';

/** SPEC §7 call endpoints; createCall refusals become the call's own refusals (contract/call.ts). */
export function httpCallApi(api: ApiClient): CallApiPort {
  return {
    async createCall(request) {
      try {
        const { beCallUserId, idempotencyKey } = request;
        return await api.data(callContract.createCall, { beCallUserId, callType: callTypeOf(request.callType), idempotencyKey }, { silent: true });
      } catch (error) {
        const code = error instanceof ApiError ? error.detail.code : undefined;
        const message = error instanceof Error ? error.message : String(error);
        if (code === callContract.CallRefusalCode.busy) throw new CallApiError('busy', message);
        if (code === callContract.CallRefusalCode.unavailable) throw new CallApiError('offline', message);
        if (code === callContract.CallRefusalCode.balance) throw new CallApiError('balance', message);
        throw new CallApiError('error', message);
      }
    },
    async joinCall(channelId, idempotencyKey) {
      try {
        await api.data(callContract.joinCall, { searchValue: channelId, idempotencyKey }, { silent: true });
      } catch (error) {
        // The payer cannot pay the first period (SPEC §8 1080): the call's own refusal, said in words.
        if (error instanceof ApiError && error.detail.code === callContract.CallRefusalCode.balance) throw new CallApiError('balance', error.message);
        throw error;
      }
    },
    async terms(channelId) {
      return api.data(callContract.callTerms, { searchValue: channelId }, { silent: true });
    },
    async endCall(channelId, reason) {
      const hangupReason = reportedHangupReason(reason);
      await api.data(callContract.endCall, { channelId, hangupReason }, { silent: true });
    },
    async rate(rating) {
      await api.data(callContract.callRate, rating, { silent: true });
    },
    async peerCard(account) {
      const p = await api.data(getUserDetail, { yxAccid: account }, { silent: true });
      return {
        userId: p.userId, nickname: p.nickname, icon: p.icon, levelName: p.levelName,
        ...(p.age !== null ? { age: p.age } : {}), ...(p.countryCode !== null ? { countryCode: p.countryCode } : {}),
      };
    },
  };
}
