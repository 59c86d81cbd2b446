/**
 * The realtime ports only the session's per-use children call: a call's API and gifts, a
 * chat's blocking and secret messages, a live room's API and chat rooms. realtime.ts hands the
 * session stand-ins that load this module with the first call of one of them (and the app
 * fetches it when idle), so their code and their part of the API contract are in no first screen.
 */
import { CallApiError } from '../../machines/ports/call.port';
import type { CallApiPort } from '../../machines/ports/call.port';
import { UnansweredError } from '../../machines/shared/intent-key';
import type { ChatroomPort } from '../../machines/ports/chatroom.port';
import type { LiveApiPort } from '../../machines/ports/live.port';
import type { RealtimePorts } from '../../machines/session/session.actors';
import { createLocalChatroomPort } from '../adapters/chatroom.local';
import { hubUrl } from '../adapters/hub.socket';
import type { ApiClient } from '../api/client';
import { chat as chatContract, privateMsg as privateMsgContract, realtime as realtimeContract } from '../api/contract';
import * as callContract from '../api/contract/call';
import { getUserDetail } from '../api/contract/people';
import { ApiError, isUnanswered } from '../api/outcome';
import { config } from './config';
import { TEXT_NOT_ENOUGH_DIAMONDS, httpGiftApi } from './gifts';
import { httpLiveApi } from './live';

export type PerUsePorts = Pick<RealtimePorts, 'callApi' | 'giftApi' | 'setBlocked' | 'storeSecret' | 'openSecret'> & {
  liveApi: LiveApiPort;
  chatroom: ChatroomPort;
};

/** Live rooms' chat: the hub's chat rooms locally, NetEase's chat-room client in production (its SDK at the first entry). */
async function chatroomPort(api: ApiClient): Promise<ChatroomPort> {
  if (config.realtime !== 'production') return createLocalChatroomPort({ url: hubUrl(realtimeContract.RealtimePath.chatroom) });
  const [{ createNimChatroomPort }, { loadChatroom }] = await Promise.all([
    import('../adapters/chatroom.nim'),
    import('../adapters/chatroom.nim.load'),
  ]);
  return createNimChatroomPort({
    appkey: config.nimAppKey,
    loadSdk: loadChatroom,
    chatroomAddresses: (roomId) => api.data(realtimeContract.getChatRoomAddress, { searchValue: roomId }, { silent: true }),
  });
}

/** SPEC §7 call endpoints; createCall refusals become the call's own refusals (contract/call.ts). */
export function httpCallApi(api: ApiClient): CallApiPort {
  return {
    async createCall(request) {
      try {
        const { beCallUserId, idempotencyKey } = request;
        return await api.data(callContract.createCall, { beCallUserId, callType: request.callType === 10 ? 10 : 0, idempotencyKey }, { silent: true });
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
      const hangupReason = reason === 2 || reason === 6 ? reason : 1;
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

export async function createPerUsePorts(api: ApiClient): Promise<PerUsePorts> {
  return {
    callApi: httpCallApi(api),
    giftApi: httpGiftApi(api),
    liveApi: httpLiveApi(api),
    chatroom: await chatroomPort(api),
    async setBlocked(peer, blocked) {
      await api.data(blocked ? chatContract.blockUser : chatContract.removeBlockUser, { beBlockYxAccid: peer }, { silent: true });
    },
    async storeSecret({ to, price, content }) {
      const stored = await api.data(privateMsgContract.uploadPrivateInfo, { to, price, content }, { silent: true });
      return stored.ext;
    },
    async openSecret(id, payment) {
      try {
        const request = payment ? { id, pay: true as const, idempotencyKey: payment.idempotencyKey } : { id };
        const info = await api.data(privateMsgContract.privateInfo, request, { silent: true });
        return { id: info.id, price: info.price, unlocked: info.unlocked, content: info.content, mediaList: info.mediaList, balance: info.balance };
      } catch (error) {
        if (error instanceof ApiError && error.detail.code === '1080') throw new Error(TEXT_NOT_ENOUGH_DIAMONDS);
        // A payment that got no answer may have been made: the talk keeps its key for the next tap.
        if (isUnanswered(error)) throw new UnansweredError(error instanceof Error ? error.message : String(error));
        throw error;
      }
    },
  };
}
