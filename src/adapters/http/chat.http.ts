/**
 * A chat's per-use requests (SPEC §7 blockUser / removeBlockUser, uploadPrivateInfo,
 * privateInfo) over the HTTP contract: blocking a peer and the secret messages' store and open
 * (paid), whose refusals become the words or the UnansweredError the talk reads.
 */
import type { ChatApiPort } from '../../../machines/ports/chat.port';
import { UnansweredError } from '../../../machines/shared/intent-key';
import type { ApiClient } from '../../api/client';
import * as chatContract from '../../api/contract/chat';
import * as privateMsgContract from '../../api/contract/private-msg';
import { ApiError, isUnanswered } from '../../api/outcome';
import { TEXT_SECRET_NOT_ENOUGH_DIAMONDS } from '../../../machines/ports/chat.port';

export function httpChatApi(api: ApiClient): ChatApiPort {
  return {
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
        if (error instanceof ApiError && error.detail.code === '1080') throw new Error(TEXT_SECRET_NOT_ENOUGH_DIAMONDS);
        // A payment that got no answer may have been made: the talk keeps its key for the next tap.
        if (isUnanswered(error)) throw new UnansweredError(error instanceof Error ? error.message : String(error));
        throw error;
      }
    },
  };
}
