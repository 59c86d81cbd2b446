/**
 * The IM port on NetEase IM (`nim-web-sdk-ng` 10.8.1, V2 API): SPEC §3 Message and Chat
 * session, §4 Message service, §8 message-service codes.
 *
 * This file imports SDK *types* only. The SDK itself arrives through `deps.loadSdk`
 * (`loadNim` in im.nim.load.ts, a dynamic import of im.nim.sdk.ts), at the first login, so
 * it is never part of the first screen's chunk. NetEase enums are ambient `const enum`s: their
 * numbers are restated below as typed constants instead of being imported.
 *
 * Errors: every SDK failure becomes `ImError(code)` with the SDK's `code`; a send refused by
 * the peer (blocked) becomes `ImError(7101)`, whichever code the SDK reports it with.
 */
import type { NIMInitializeOptions, NIMOtherOptions } from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/NIMInterface';
import type {
  V2NIMConversation, V2NIMConversationIdUtil, V2NIMConversationService, V2NIMLastMessage,
} from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/V2NIMConversationService';
import type {
  V2NIMKickedOfflineDetail, V2NIMLoginService, V2NIMLoginStatus,
} from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/V2NIMLoginService';
import type {
  V2NIMMessage, V2NIMMessageAttachment, V2NIMMessageCreator, V2NIMMessageService, V2NIMMessageType,
} from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/V2NIMMessageService';
import type { V2NIMCustomNotification, V2NIMNotificationService } from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/V2NIMNotificationService';
import type { V2NIMError } from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/types';
import { ImCode, ImError } from '../../machines/ports/im.port';
import type {
  ImConversation, ImEvent, ImMessage, ImMessageType, ImNotification, ImPort, SendOptions,
} from '../../machines/ports/im.port';

/** The part of one NetEase IM instance this adapter uses (the doubles implement exactly this). */
export interface NimClient {
  V2NIMLoginService: Pick<V2NIMLoginService, 'login' | 'logout' | 'getLoginStatus' | 'getConnectStatus' | 'getLoginUser' | 'on' | 'off'>;
  V2NIMMessageService: Pick<V2NIMMessageService, 'sendMessage' | 'getMessageList' | 'clearHistoryMessage' | 'on' | 'off'>;
  V2NIMMessageCreator: Pick<V2NIMMessageCreator, 'createTextMessage' | 'createCustomMessage'>;
  V2NIMConversationService: Pick<V2NIMConversationService, 'getConversationList' | 'clearUnreadCountByIds' | 'on' | 'off'>;
  V2NIMConversationIdUtil: Pick<V2NIMConversationIdUtil, 'p2pConversationId' | 'parseConversationTargetId'>;
  V2NIMNotificationService: Pick<V2NIMNotificationService, 'sendCustomNotification' | 'on' | 'off'>;
}

/** The SDK's static side: `NIM.getInstance(options, otherOptions)` (a singleton per page). */
export interface NimSdk {
  getInstance(options: NIMInitializeOptions, otherOptions?: NIMOtherOptions): NimClient;
}

export interface NimImDeps {
  appkey: string;
  /** Resolves to the SDK class; production passes `loadNim` (im.nim.load.ts). */
  loadSdk: () => Promise<NimSdk>;
}

// NetEase `const enum` values (V2NIMLoginService.d.ts, V2NIMMessageService.d.ts, V2NIMConversationService.d.ts).
const LoginStatus = { logout: 0, logined: 1, logining: 2 } as const satisfies Record<string, V2NIMLoginStatus>;
const CONNECTED = 1; // V2NIMConnectStatus.V2NIM_CONNECT_STATUS_CONNECTED
const P2P = 1; // V2NIMConversationType.V2NIM_CONVERSATION_TYPE_P2P
const QUERY_DESC = 0; // V2NIMQueryDirection.V2NIM_QUERY_DIRECTION_DESC
const SENDING_FAILED = 2; // V2NIMMessageSendingState.V2NIM_MESSAGE_SENDING_STATE_FAILED
const MessageTypes: ReadonlyMap<number, ImMessageType> = new Map<V2NIMMessageType, ImMessageType>([
  [0, 'text'], [1, 'image'], [2, 'audio'], [100, 'custom'],
]);

/** The codes a refused send arrives with: 7101 (the SPEC's, NetEase V1 "be pulled black") and V2's ACCOUNT_IN_BLOCK_LIST. */
export const REFUSED_SEND_CODES: readonly number[] = [ImCode.refused, 102426];
/** An error that carried no numeric code. */
export const UNKNOWN_IM_CODE = -1;

/** Telemetry off: no compass/data reporting, no A/B-test fetch, no persistent SDK log. */
export const NIM_OTHER_OPTIONS = {
  reporterConfig: { enableCompass: false, isDataReportEnable: false },
  abtestConfig: { isAbtestEnable: false },
  loggerConfig: { debugLevel: 'off', storageEnable: false },
} as const satisfies NIMOtherOptions;

/** Failed sends kept for a resend with the same idClient (the SDK resends the same object). */
const RESEND_CACHE_SIZE = 50;

export function createNimImPort(deps: NimImDeps): ImPort {
  const listeners = new Set<(event: ImEvent) => void>();
  const failedSends = new Map<string, V2NIMMessage>();
  let client: NimClient | null = null;
  let clientLoading: Promise<NimClient> | null = null;
  let account: string | null = null;
  /** True between a successful login and the next logout, kick or failed reconnect: events before that are the login's own. */
  let sessionLive = false;

  const emit = (event: ImEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };

  function requireClient(): NimClient {
    if (!client || !account) throw new ImError(ImCode.linkLost, 'IM is not logged in');
    return client;
  }

  async function ensureClient(): Promise<NimClient> {
    if (client) return client;
    clientLoading ??= deps.loadSdk().then((sdk) => {
      const nim = sdk.getInstance({ appkey: deps.appkey, apiVersion: 'v2' }, NIM_OTHER_OPTIONS);
      attach(nim);
      client = nim;
      return nim;
    });
    try {
      return await clientLoading;
    } finally {
      clientLoading = null;
    }
  }

  function attach(nim: NimClient): void {
    nim.V2NIMLoginService.on('onKickedOffline', (_detail: V2NIMKickedOfflineDetail) => {
      sessionLive = false;
      emit({ type: 'kicked' });
    });
    nim.V2NIMLoginService.on('onDisconnected', (error: V2NIMError) => {
      if (sessionLive) emit({ type: 'disconnected', code: codeOf(error) });
    });
    // The SDK's own reconnect failed at authentication (e.g. an expired token): it stops trying.
    nim.V2NIMLoginService.on('onLoginFailed', (error: V2NIMError) => {
      if (!sessionLive) return;
      sessionLive = false;
      emit({ type: 'disconnected', code: codeOf(error) });
    });
    nim.V2NIMMessageService.on('onReceiveMessages', (messages: V2NIMMessage[]) => {
      for (const message of messages) {
        if (message.conversationType === P2P) emit({ type: 'message', message: toImMessage(message) });
      }
    });
    const onConversations = (conversations: V2NIMConversation[]) => {
      for (const c of conversations) {
        if (c.type === P2P) emit({ type: 'conversation', conversation: toImConversation(c, nim) });
      }
    };
    nim.V2NIMConversationService.on('onConversationChanged', onConversations);
    nim.V2NIMConversationService.on('onConversationCreated', (c: V2NIMConversation) => onConversations([c]));
    nim.V2NIMConversationService.on('onTotalUnreadCountChanged', (total: number) => emit({ type: 'unread', total }));
    nim.V2NIMNotificationService.on('onReceiveCustomNotifications', (notifications: V2NIMCustomNotification[]) => {
      for (const n of notifications) emit({ type: 'notification', notification: toImNotification(n) });
    });
  }

  const p2p = (nim: NimClient, peer: string): string => nim.V2NIMConversationIdUtil.p2pConversationId(peer);

  async function send(to: string, create: (nim: NimClient) => V2NIMMessage, options: SendOptions): Promise<ImMessage> {
    const nim = requireClient();
    let message: V2NIMMessage;
    try {
      message = prepare(() => create(nim), options.idClient);
    } catch (error) {
      throw toImError(error); // the SDK validates the content when creating the message
    }
    if (options.ext !== undefined) message.serverExtension = typeof options.ext === 'string' ? options.ext : JSON.stringify(options.ext);
    try {
      const { message: sent } = await nim.V2NIMMessageService.sendMessage(message, p2p(nim, to));
      failedSends.delete(sent.messageClientId);
      if (REFUSED_SEND_CODES.includes(sent.messageStatus?.errorCode ?? 0)) throw new ImError(ImCode.refused, 'The peer refused the message');
      return toImMessage(sent);
    } catch (error) {
      const mapped = toImError(error);
      if (mapped.code !== ImCode.refused && message.messageClientId) remember(message);
      throw mapped;
    }
  }

  function remember(message: V2NIMMessage): void {
    failedSends.delete(message.messageClientId);
    failedSends.set(message.messageClientId, message);
    while (failedSends.size > RESEND_CACHE_SIZE) failedSends.delete(failedSends.keys().next().value as string);
  }

  /** A retry reuses the failed message object (how the SDK resends); otherwise a new message keeps the given idClient. */
  function prepare(create: () => V2NIMMessage, idClient: string | undefined): V2NIMMessage {
    if (idClient) {
      const earlier = failedSends.get(idClient);
      if (earlier) return earlier;
    }
    const message = create();
    if (idClient) message.messageClientId = idClient;
    return message;
  }

  return {
    async login(nextAccount, token) {
      const nim = await ensureClient().catch((error: unknown) => {
        throw error instanceof ImError ? error : new ImError(UNKNOWN_IM_CODE, `IM SDK unavailable: ${messageOf(error)}`);
      });
      const login = nim.V2NIMLoginService;
      const status = login.getLoginStatus();
      if (status === LoginStatus.logined && login.getLoginUser() === nextAccount) {
        account = nextAccount;
        sessionLive = true;
        return;
      }
      sessionLive = false;
      // A login while the SDK is still reconnecting on its own, or for another account: start clean.
      if (status === LoginStatus.logined || status === LoginStatus.logining) await login.logout().catch(() => undefined);
      try {
        await login.login(nextAccount, token, { forceMode: false });
      } catch (error) {
        throw toImError(error);
      }
      account = nextAccount;
      sessionLive = true;
    },

    async logout() {
      sessionLive = false;
      account = null;
      failedSends.clear();
      if (!client) return;
      if (client.V2NIMLoginService.getLoginStatus() === LoginStatus.logout) return;
      // Logging out always ends the local session; a failure to tell the server changes nothing here.
      await client.V2NIMLoginService.logout().catch(() => undefined);
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    sendText(to, text, options = {}) {
      return send(to, (nim) => nim.V2NIMMessageCreator.createTextMessage(text), options);
    },

    sendCustom(to, attach, options = {}) {
      return send(to, (nim) => nim.V2NIMMessageCreator.createCustomMessage('', JSON.stringify(attach)), options);
    },

    async sendNotification(to, content) {
      const nim = requireClient();
      try {
        await nim.V2NIMNotificationService.sendCustomNotification(p2p(nim, to), JSON.stringify(content));
      } catch (error) {
        throw toImError(error);
      }
    },

    async conversations(limit) {
      const nim = requireClient();
      try {
        const { conversationList } = await nim.V2NIMConversationService.getConversationList(0, limit);
        return conversationList
          .filter((c) => c.type === P2P)
          .map((c) => toImConversation(c, nim))
          .sort((a, b) => b.updateTime - a.updateTime)
          .slice(0, limit);
      } catch (error) {
        throw toImError(error);
      }
    },

    async markRead(conversationId) {
      const nim = requireClient();
      // Accepts a conversation id as given by `conversations()` or a bare peer account.
      const id = conversationId.includes('|') ? conversationId : p2p(nim, conversationId);
      let results;
      try {
        results = await nim.V2NIMConversationService.clearUnreadCountByIds([id]);
      } catch (error) {
        throw toImError(error);
      }
      const failed = results.find((r) => r.error);
      if (failed) throw toImError(failed.error);
    },

    async history(peer, { limit, before }) {
      const nim = requireClient();
      try {
        const messages = await nim.V2NIMMessageService.getMessageList({
          conversationId: p2p(nim, peer),
          limit,
          direction: QUERY_DESC,
          ...(before !== undefined ? { endTime: before } : {}),
        });
        return messages
          .filter((m) => before === undefined || m.createTime < before)
          .sort((a, b) => b.createTime - a.createTime)
          .slice(0, limit)
          .map((m) => toImMessage(m));
      } catch (error) {
        throw toImError(error);
      }
    },

    async clearHistory(peer) {
      const nim = requireClient();
      try {
        await nim.V2NIMMessageService.clearHistoryMessage({ conversationId: p2p(nim, peer), deleteRoam: true, onlineSync: true });
      } catch (error) {
        throw toImError(error);
      }
    },

    async ping() {
      // The V2 SDK keeps its own heartbeat on the link; the port's ping reads the state it maintains.
      const nim = client;
      if (!nim || !account || !sessionLive) throw new ImError(ImCode.linkLost, 'IM is not logged in');
      const login = nim.V2NIMLoginService;
      if (login.getLoginStatus() !== LoginStatus.logined || login.getConnectStatus() !== CONNECTED) {
        throw new ImError(ImCode.linkLost, 'IM link is down');
      }
    },
  };
}

// ---- mapping (one place) ----

export function toImError(error: unknown): ImError {
  if (error instanceof ImError) return error;
  const code = codeOf(error);
  if (REFUSED_SEND_CODES.includes(code)) return new ImError(ImCode.refused, messageOf(error));
  return new ImError(code, messageOf(error));
}

function codeOf(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : UNKNOWN_IM_CODE;
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object') {
    const { desc, message } = error as { desc?: unknown; message?: unknown };
    if (typeof desc === 'string' && desc) return desc;
    if (typeof message === 'string' && message) return message;
  }
  return String(error);
}

export function toImMessage(m: V2NIMMessage): ImMessage {
  return baseMessage({
    out: m.isSelf,
    messageClientId: m.messageClientId,
    messageServerId: m.messageServerId,
    senderId: m.senderId,
    receiverId: m.receiverId,
    createTime: m.createTime,
    messageType: m.messageType,
    text: m.text,
    attachment: m.attachment,
    serverExtension: m.serverExtension,
    sendingState: m.sendingState,
    errorCode: m.messageStatus?.errorCode,
  });
}

function lastMessage(last: V2NIMLastMessage, self: string): ImMessage {
  const ref = last.messageRefer;
  return baseMessage({
    out: ref.senderId === self,
    messageClientId: ref.messageClientId,
    messageServerId: ref.messageServerId,
    senderId: ref.senderId,
    receiverId: ref.receiverId,
    createTime: ref.createTime,
    messageType: last.messageType,
    text: last.text,
    attachment: last.attachment,
    serverExtension: last.serverExtension,
    sendingState: last.sendingState,
    errorCode: undefined,
  });
}

interface MessageFields {
  /** Sent by this account (from this or another of its devices). */
  out: boolean;
  messageClientId: string;
  messageServerId: string;
  senderId: string;
  receiverId: string;
  createTime: number;
  messageType: number | undefined;
  text: string | undefined;
  attachment: V2NIMMessageAttachment | undefined;
  serverExtension: string | undefined;
  sendingState: number | undefined;
  errorCode: number | undefined;
}

function baseMessage(f: MessageFields): ImMessage {
  const type = MessageTypes.get(f.messageType ?? -1) ?? 'custom';
  const { out } = f;
  const message: ImMessage = {
    idClient: f.messageClientId,
    idServer: f.messageServerId,
    from: f.senderId,
    to: f.receiverId,
    sessionId: out ? f.receiverId : f.senderId,
    scene: 'p2p',
    flow: out ? 'out' : 'in',
    type,
    time: f.createTime,
    status: REFUSED_SEND_CODES.includes(f.errorCode ?? 0) ? 'refused' : f.sendingState === SENDING_FAILED ? 'failed' : 'sent',
  };
  if (type === 'text' && f.text !== undefined) message.text = f.text;
  const attach = toAttach(f.attachment, type);
  if (attach) message.attach = attach;
  if (f.serverExtension) message.ext = f.serverExtension;
  return message;
}

/** Custom payloads are JSON in `raw`; file attachments keep their plain fields (url, size, …), never the File. */
function toAttach(attachment: V2NIMMessageAttachment | undefined, type: ImMessageType): Record<string, unknown> | undefined {
  if (!attachment) return undefined;
  if (type === 'custom') {
    const raw = attachment.raw;
    if (raw === undefined || raw === '') return undefined;
    try {
      const parsed: unknown = JSON.parse(raw);
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { raw };
    } catch {
      return { raw };
    }
  }
  const { file: _file, path: _path, ...plain } = attachment as V2NIMMessageAttachment & { file?: unknown; path?: unknown };
  return plain;
}

function toImConversation(c: V2NIMConversation, nim: NimClient): ImConversation {
  const self = nim.V2NIMLoginService.getLoginUser(); // known to the SDK from the start of a login
  return {
    id: c.conversationId,
    to: nim.V2NIMConversationIdUtil.parseConversationTargetId(c.conversationId),
    lastMsg: c.lastMessage ? lastMessage(c.lastMessage, self) : null,
    updateTime: c.updateTime,
    unread: c.unreadCount,
  };
}

function toImNotification(n: V2NIMCustomNotification): ImNotification {
  return {
    idServer: n.notificationConfig?.clientNotificationId ?? `${n.senderId}:${n.timestamp}`,
    from: n.senderId,
    to: n.receiverId,
    time: n.timestamp,
    content: n.content,
  };
}
