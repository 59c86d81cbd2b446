/**
 * Handlers of the realtime endpoints (SPEC §7): the Agora tokens of the session user (the
 * hub's signalling login accepts the rtm token), the chat-room address of a live room (the
 * hub's chat-room path, on this origin) and the customer-service IM accounts.
 */
import type { realtime } from '../../src/api/contract';
import { RealtimePath } from '../../src/api/contract/realtime';
import type { RealtimeHub } from '../realtime/hub';
import { requireSession, type HandlersOf } from './transport';

export type RealtimeApiDeps = Pick<RealtimeHub, 'tokens' | 'accounts'>;

export function realtimeHandlers({ tokens, accounts }: RealtimeApiDeps): HandlersOf<typeof realtime> {
  return {
    getAgoraRtmToken(ctx) {
      return tokens.issue(requireSession(ctx));
    },

    // One local address, whatever the room: the hub tells a room that has not opened apart on `enter`.
    getChatRoomAddress() {
      return [RealtimePath.chatroom];
    },

    getCustomerServiceList() {
      return accounts.customerService().map((s) => ({ imId: s.yx_accid, nickname: s.nickname, icon: s.icon }));
    },
  };
}
