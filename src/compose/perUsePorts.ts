/**
 * The realtime ports only the session's per-use children call: a call's API and gifts, a
 * chat's blocking and secret messages, a live room's API and chat rooms, the wallet's API and a host's
 * money out. realtime.ts hands the
 * session stand-ins that load this module with the first call of one of them (and the app
 * fetches it when idle), so their code and their part of the API contract are in no first screen.
 */
import type { ChatroomPort } from '../../machines/ports/chatroom.port';
import type { LiveApiPort } from '../../machines/ports/live.port';
import type { WalletPort } from '../../machines/ports/wallet.port';
import type { WithdrawPort } from '../../machines/ports/withdraw.port';
import { httpWallet } from '../adapters/http/wallet.http';
import { httpWithdraw } from '../adapters/http/withdraw.http';
import type { RealtimePorts } from '../../machines/session/session.ports';
import { createLocalChatroomPort } from '../adapters/chatroom.local';
import { hubUrl } from '../adapters/hub.socket';
import type { ApiClient } from '../api/client';
import * as realtimeContract from '../api/contract/realtime';
import { config } from '../app/config';
import { httpCallApi } from '../adapters/http/call.http';
import { httpChatApi } from '../adapters/http/chat.http';
import { httpGiftApi } from '../adapters/http/gift.http';
import { chatroomAddressesFrom, httpLiveApi } from '../adapters/http/live.http';

export type PerUsePorts = Pick<RealtimePorts, 'callApi' | 'giftApi' | 'chat'> & {
  liveApi: LiveApiPort;
  chatroom: ChatroomPort;
  wallet: WalletPort;
  withdraw: WithdrawPort;
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
    chatroomAddresses: chatroomAddressesFrom(api),
  });
}

export async function createPerUsePorts(api: ApiClient): Promise<PerUsePorts> {
  return {
    callApi: httpCallApi(api),
    giftApi: httpGiftApi(api),
    liveApi: httpLiveApi(api),
    chatroom: await chatroomPort(api),
    chat: httpChatApi(api),
    wallet: httpWallet(api),
    withdraw: httpWithdraw(api),
  };
}
