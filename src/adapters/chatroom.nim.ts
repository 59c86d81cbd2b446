/**
 * The chat-room port on NetEase IM chat rooms (`nim-web-sdk-ng` 10.8.1, `V2NIMChatroomClient`):
 * live rooms' chat (SPEC §3 Live chat record, §4 Live state: member enter/exit and gag, §7
 * chat-room calls: member query limit, history limit).
 *
 * One SDK client per room, made at `enter` and destroyed at `leave`. `enter` needs the room's
 * link addresses: the SDK asks for them through `linkProvider`, which this adapter answers with
 * `deps.chatroomAddresses` (the app's /api/agora/live/getChatRoomAddress).
 *
 * Member enter/exit come from the SDK's dedicated events; gag changes come from the room's
 * notification messages (the SDK has no per-member gag event for others), and notification
 * messages are never reported as chat lines. Types only are imported from the SDK here; the code
 * arrives through `deps.loadSdk` (chatroom.nim.load.ts).
 */
import type {
  V2NIMChatroomClient, V2NIMChatroomClientListener, V2NIMChatroomKickedInfo,
} from 'nim-web-sdk-ng/dist/v2/CHATROOM_BROWSER_SDK';
import type { V2NIMChatroomMember } from 'nim-web-sdk-ng/dist/v2/CHATROOM_BROWSER_SDK/V2NIMChatroomMemberService';
import type {
  V2NIMChatroomChatBannedNotificationAttachment, V2NIMChatroomMessage, V2NIMChatroomMessageCreator,
  V2NIMChatroomMessageNotificationType, V2NIMMessageType,
} from 'nim-web-sdk-ng/dist/v2/CHATROOM_BROWSER_SDK/V2NIMChatroomMessageService';
import type {
  V2NIMChatroomInitParams, V2NIMChatroomService, V2NIMOtherParams,
} from 'nim-web-sdk-ng/dist/v2/CHATROOM_BROWSER_SDK/V2NIMChatroomService';
import type {
  ChatroomEvent, ChatroomMember, ChatroomMessage, ChatroomPort,
} from '../../machines/ports/chatroom.port';
import { toImError } from './im.nim';

type ClientEvents = V2NIMChatroomClientListener;

/** The part of one chat-room client this adapter uses (the doubles implement exactly this). */
export interface ChatroomClient extends Pick<V2NIMChatroomClient, 'enter' | 'exit' | 'getInstanceId'> {
  // The SDK's `on`/`off` return the full client (`this`), which a Pick cannot express for a double.
  on<T extends keyof ClientEvents>(event: T, fn: (...args: ClientEvents[T]) => void): unknown;
  off<T extends keyof ClientEvents>(event: T, fn: (...args: ClientEvents[T]) => void): unknown;
  V2NIMChatroomService: Pick<V2NIMChatroomService,
    'sendMessage' | 'getMessageList' | 'getMemberListByOption' | 'setMemberChatBannedStatus' | 'on' | 'off'>;
  V2NIMChatroomMessageCreator: Pick<V2NIMChatroomMessageCreator, 'createTextMessage' | 'createCustomMessage'>;
}

/** The SDK's static side (`V2NIMChatroomClient.newInstance` / `destroyInstance`). */
export interface ChatroomSdk {
  newInstance(initParams: V2NIMChatroomInitParams, otherParams?: V2NIMOtherParams): ChatroomClient;
  destroyInstance(instanceId: number): void;
}

export interface NimChatroomDeps {
  appkey: string;
  /** Resolves to the SDK class; production passes `loadChatroom` (chatroom.nim.load.ts). */
  loadSdk: () => Promise<ChatroomSdk>;
  /** The room's link addresses for this account (/api/agora/live/getChatRoomAddress). */
  chatroomAddresses: (roomId: string, account: string) => Promise<string[]>;
}

// NetEase `const enum` values (V2NIMChatroomMessageService.d.ts, V2NIMChatroomLoginService.d.ts).
const TEXT: V2NIMMessageType = 0;
const NOTIFICATION: V2NIMMessageType = 5;
const CUSTOM: V2NIMMessageType = 100;
const QUERY_DESC = 0; // V2NIMQueryDirection.V2NIM_QUERY_DIRECTION_DESC
const GAG_NOTICES: ReadonlyMap<number, boolean> = new Map<V2NIMChatroomMessageNotificationType, boolean>([
  [4, true], // MEMBER_CHAT_BANNED_ADDED
  [5, false], // MEMBER_CHAT_BANNED_REMOVED
  [8, true], // MEMBER_TEMP_CHAT_BANNED_ADDED
  [9, false], // MEMBER_TEMP_CHAT_BANNED_REMOVED
]);
const KICKED_ROOM_INVALID = 1; // V2NIMChatroomKickedReason.V2NIM_CHATROOM_KICKED_REASON_CHATROOM_INVALID
/** The sender's client type of what the server sends through NetEase's server API (V2NIMLoginClientType RESTFUL). */
const SERVER_API_CLIENT = 32;
/** Members asked for per page; the adapter pages until the caller's limit. */
const MEMBER_PAGE = 200;

/** Telemetry off: no compass/data reporting, no A/B-test fetch, no persistent SDK log. */
export const CHATROOM_OTHER_PARAMS = {
  reporterConfig: { enableCompass: false, isDataReportEnable: false },
  abtestConfig: { isAbtestEnable: false },
  loggerConfig: { debugLevel: 'off', storageEnable: false },
} as const satisfies V2NIMOtherParams;

interface Room {
  sdk: ChatroomSdk;
  client: ChatroomClient;
  detach: () => void;
}

export function createNimChatroomPort(deps: NimChatroomDeps): ChatroomPort {
  let sdkLoading: Promise<ChatroomSdk> | null = null;
  const rooms = new Map<string, Room>();
  const listeners = new Map<string, Set<(event: ChatroomEvent) => void>>();

  const emit = (roomId: string, event: ChatroomEvent): void => {
    for (const listener of [...(listeners.get(roomId) ?? [])]) listener(event);
  };

  function loadSdk(): Promise<ChatroomSdk> {
    sdkLoading ??= deps.loadSdk().catch((error: unknown) => {
      sdkLoading = null;
      throw error;
    });
    return sdkLoading;
  }

  function room(roomId: string): Room {
    const r = rooms.get(roomId);
    if (!r) throw new Error(`Not in chat room ${roomId}`);
    return r;
  }

  function close(roomId: string, r: Room): void {
    if (rooms.get(roomId) === r) rooms.delete(roomId);
    r.detach();
    try {
      r.client.exit();
    } finally {
      r.sdk.destroyInstance(r.client.getInstanceId());
    }
  }

  function attach(roomId: string, client: ChatroomClient): () => void {
    const service = client.V2NIMChatroomService;
    const onMessages = (messages: V2NIMChatroomMessage[]) => {
      for (const m of messages) {
        if (m.messageType === NOTIFICATION) {
          const notice = m.attachment as V2NIMChatroomChatBannedNotificationAttachment | undefined;
          const gagged = GAG_NOTICES.get(notice?.type ?? -1);
          if (gagged !== undefined) for (const account of notice?.targetIds ?? []) emit(roomId, { type: 'gag', account, gagged });
          continue;
        }
        emit(roomId, { type: 'message', message: toChatroomMessage(m) });
      }
    };
    const onEnter = (member: V2NIMChatroomMember) => emit(roomId, { type: 'memberEnter', member: toMember(member) });
    const onExit = (account: string) => emit(roomId, { type: 'memberExit', account });
    const onKicked = (info: V2NIMChatroomKickedInfo) => {
      const r = rooms.get(roomId);
      if (r?.client === client) close(roomId, r);
      emit(roomId, { type: 'closed', reason: info.kickedReason === KICKED_ROOM_INVALID ? 'roomClosed' : 'kicked' });
    };
    service.on('onReceiveMessages', onMessages);
    service.on('onChatroomMemberEnter', onEnter);
    service.on('onChatroomMemberExit', onExit);
    client.on('onChatroomKicked', onKicked);
    return () => {
      service.off('onReceiveMessages', onMessages);
      service.off('onChatroomMemberEnter', onEnter);
      service.off('onChatroomMemberExit', onExit);
      client.off('onChatroomKicked', onKicked);
    };
  }

  return {
    async enter(roomId, entry) {
      const sdk = await loadSdk().catch((error: unknown) => {
        throw new Error(`Chat-room SDK unavailable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      });
      const previous = rooms.get(roomId);
      if (previous) close(roomId, previous); // one client per room: a new entry replaces the old one
      const client = sdk.newInstance({ appkey: deps.appkey }, CHATROOM_OTHER_PARAMS);
      const r: Room = { sdk, client, detach: attach(roomId, client) };
      rooms.set(roomId, r);
      try {
        await client.enter(roomId, {
          accountId: entry.account,
          token: entry.token,
          roomNick: entry.nick,
          ...(entry.avatar !== undefined ? { roomAvatar: entry.avatar } : {}),
          ...(entry.ext !== undefined ? { serverExtension: JSON.stringify(entry.ext) } : {}),
          // The .d.ts declares (roomId, accountId) but the 10.8.1 bundle calls linkProvider(account, roomId):
          // the arguments are ignored and the known room and account are used instead.
          linkProvider: () => deps.chatroomAddresses(roomId, entry.account),
        });
      } catch (error) {
        close(roomId, r);
        throw toImError(error);
      }
    },

    async leave(roomId) {
      const r = rooms.get(roomId);
      if (r) close(roomId, r);
    },

    async send(roomId, { text, attach }) {
      const { client } = room(roomId);
      const creator = client.V2NIMChatroomMessageCreator;
      try {
        let message: V2NIMChatroomMessage;
        if (attach) {
          message = creator.createCustomMessage(JSON.stringify(attach));
          if (text) message.text = text;
        } else {
          message = creator.createTextMessage(text ?? '');
        }
        const result = await client.V2NIMChatroomService.sendMessage(message);
        return toChatroomMessage(result.message);
      } catch (error) {
        throw toImError(error);
      }
    },

    async members(roomId, limit) {
      const service = room(roomId).client.V2NIMChatroomService;
      const found: ChatroomMember[] = [];
      let pageToken = '';
      try {
        while (found.length < limit) {
          const page = await service.getMemberListByOption({ pageToken, limit: Math.min(MEMBER_PAGE, limit - found.length), onlyOnline: true });
          found.push(...page.memberList.map(toMember));
          if (page.finished || !page.pageToken || page.memberList.length === 0) break;
          pageToken = page.pageToken;
        }
      } catch (error) {
        throw toImError(error);
      }
      return found.slice(0, limit);
    },

    async history(roomId, limit) {
      const service = room(roomId).client.V2NIMChatroomService;
      try {
        const list = await service.getMessageList({ direction: QUERY_DESC, limit, messageTypes: [TEXT, CUSTOM] });
        return list.filter((m) => m.messageType !== NOTIFICATION).slice(0, limit).map(toChatroomMessage);
      } catch (error) {
        throw toImError(error);
      }
    },

    async setGagged(roomId, account, gagged) {
      try {
        await room(roomId).client.V2NIMChatroomService.setMemberChatBannedStatus(account, gagged);
      } catch (error) {
        throw toImError(error);
      }
    },

    subscribe(roomId, listener) {
      let set = listeners.get(roomId);
      if (!set) {
        set = new Set();
        listeners.set(roomId, set);
      }
      set.add(listener);
      return () => {
        const current = listeners.get(roomId);
        current?.delete(listener);
        if (current?.size === 0) listeners.delete(roomId);
      };
    },
  };
}

// ---- mapping (one place) ----

export function toChatroomMessage(m: V2NIMChatroomMessage): ChatroomMessage {
  const message: ChatroomMessage = {
    // Chat-room messages carry no server id in the V2 SDK; the client id is unique per message.
    idServer: m.messageClientId,
    roomId: m.roomId,
    from: m.senderId,
    fromNick: m.userInfoConfig?.senderNick ?? m.senderId,
    time: m.createTime,
  };
  // NetEase stamps the sender's client type: only the server API's is the service speaking (a paid gift, a notice).
  if (m.senderClientType === SERVER_API_CLIENT) message.fromServer = true;
  if (m.text) message.text = m.text;
  if (m.messageType === CUSTOM) {
    const attach = parseObject(m.attachment?.raw);
    if (attach) message.attach = attach;
  }
  return message;
}

function toMember(member: V2NIMChatroomMember): ChatroomMember {
  const out: ChatroomMember = {
    account: member.accountId,
    nick: member.roomNick || member.accountId,
    gagged: Boolean(member.chatBanned || member.tempChatBanned),
  };
  if (member.roomAvatar) out.avatar = member.roomAvatar;
  // The profile the member entered with (isVip, isNewUser, userLevel: SPEC §6 highlights); untrusted.
  const ext = member.serverExtension ? parseObject(member.serverExtension) : undefined;
  if (ext) out.ext = ext;
  return out;
}

function parseObject(raw: string | undefined): Record<string, unknown> | undefined {
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { raw };
  } catch {
    return { raw };
  }
}
