/**
 * An in-memory double of exactly the NetEase IM V2 surface that im.nim.ts uses, typed from the
 * SDK's own declarations (`implements Pick<V2NIMLoginService, …>`), so an SDK upgrade that
 * changes one of these signatures breaks `tsc` here.
 *
 * `NimCloud` plays the NetEase service for any number of `NimDoubleSdk`s (one per simulated
 * device): accounts and tokens, p2p delivery (offline messages wait for the next login),
 * per-owner history and cloud conversations with unread counts, custom notifications, block
 * lists (a refused send), kicks on same-account login elsewhere, dropped links, and injected
 * error codes. Nothing here touches the network.
 */
import type { NIMInitializeOptions, NIMOtherOptions } from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/NIMInterface';
import type {
  V2NIMConversation, V2NIMConversationIdUtil, V2NIMConversationListener, V2NIMConversationOperationResult,
  V2NIMConversationResult,
} from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/V2NIMConversationService';
import type {
  V2NIMConnectStatus, V2NIMLoginListener, V2NIMLoginOption, V2NIMLoginStatus,
} from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/V2NIMLoginService';
import type {
  V2NIMClearHistoryMessageOption, V2NIMMessage, V2NIMMessageCreator, V2NIMMessageListener, V2NIMMessageListOption,
  V2NIMSendMessageParams, V2NIMSendMessageResult,
} from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/V2NIMMessageService';
import type {
  V2NIMCustomNotification, V2NIMNotificationListener, V2NIMSendCustomNotificationParams,
} from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/V2NIMNotificationService';
import type { V2NIMError } from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/types';
import { V2ErrorDouble } from './v2-error';
import type { NimClient, NimSdk } from '../im.nim';
import { DoubleEmitter } from './emitter';

/** Real V2 codes (V2NIMErrorCode in the SDK bundle) the double answers with. */
export const NimDoubleCode = {
  invalidToken: 102302,
  accountInBlockList: 102426,
  conversationNotExist: 110404,
  illegalState: 190002,
  invalidParameter: 191004,
  disconnect: 192003,
} as const;

export class NimDoubleError extends V2ErrorDouble {}

interface Owned {
  message: V2NIMMessage;
  delivered: boolean;
}

interface ConversationState {
  unread: number;
  createTime: number;
  updateTime: number;
}

export class NimCloud {
  private readonly tokens = new Map<string, string>();
  private readonly online = new Map<string, NimDoubleClient>();
  private readonly messages = new Map<string, Owned[]>();
  private readonly conversationsByOwner = new Map<string, Map<string, ConversationState>>();
  private readonly clearedAt = new Map<string, number>();
  private readonly pendingNotifications = new Map<string, V2NIMCustomNotification[]>();
  private readonly blocked = new Set<string>();
  private readonly loginFailures = new Map<string, number>();
  private readonly sendFailures = new Map<string, number>();
  private seq = 0;
  private clock = 1_700_000_000_000;
  /** The code a send to a peer who blocked the sender is rejected with (the V2 code by default; 7101 is the V1 one). */
  refusalCode: number = NimDoubleCode.accountInBlockList;

  register(account: string, token: string): void {
    this.tokens.set(account, token);
  }

  /** `blocker` refuses every message from `sender`. */
  block(blocker: string, sender: string): void {
    this.blocked.add(`${blocker}<${sender}`);
  }

  /** The next login of `account` fails with `code` (e.g. -10005, -10002). */
  failNextLogin(account: string, code: number): void {
    this.loginFailures.set(account, code);
  }

  /** The next send by `account` fails with `code`. */
  failNextSend(account: string, code: number): void {
    this.sendFailures.set(account, code);
  }

  /** The link of `account` drops as a network fault would; the SDK then waits to reconnect on its own. */
  dropLink(account: string, code: number = NimDoubleCode.disconnect): void {
    this.online.get(account)?.linkDropped(code);
  }

  /** The SDK's own reconnect of `account` fails at authentication with `code`. */
  failReconnect(account: string, code: number): void {
    const client = this.online.get(account);
    if (!client) return;
    this.online.delete(account);
    client.reconnectFailed(code);
  }

  now(): number {
    this.clock += 1000;
    return this.clock;
  }

  isOnline(account: string): boolean {
    return this.online.has(account);
  }

  totalUnread(owner: string): number {
    let n = 0;
    for (const c of this.convs(owner).values()) n += c.unread;
    return n;
  }

  /** @internal */
  login(client: NimDoubleClient, account: string, token: string): void {
    const failure = this.loginFailures.get(account);
    if (failure !== undefined) {
      this.loginFailures.delete(account);
      throw new NimDoubleError(failure, 'login failed');
    }
    if (this.tokens.get(account) !== token) throw new NimDoubleError(NimDoubleCode.invalidToken, 'invalid token');
    const older = this.online.get(account);
    if (older && older !== client) older.kickedOffline();
    this.online.set(account, client);
  }

  /** @internal called once the client reports itself logged in: offline messages and notifications follow. */
  deliverPending(account: string): void {
    const client = this.online.get(account);
    if (!client) return;
    const waiting = (this.messages.get(account) ?? []).filter((o) => !o.delivered && !o.message.isSelf);
    for (const o of waiting) o.delivered = true;
    if (waiting.length) client.V2NIMMessageService.emit('onReceiveMessages', waiting.map((o) => ({ ...o.message })));
    const notes = this.pendingNotifications.get(account) ?? [];
    this.pendingNotifications.delete(account);
    if (notes.length) client.V2NIMNotificationService.emit('onReceiveCustomNotifications', notes);
    client.V2NIMConversationService.emit('onTotalUnreadCountChanged', this.totalUnread(account));
  }

  /** @internal */
  logout(client: NimDoubleClient, account: string): void {
    if (this.online.get(account) === client) this.online.delete(account);
  }

  /** @internal */
  send(from: string, to: string, message: V2NIMMessage): V2NIMMessage {
    const failure = this.sendFailures.get(from);
    if (failure !== undefined) {
      this.sendFailures.delete(from);
      throw new NimDoubleError(failure, 'send failed');
    }
    const resent = (this.messages.get(from) ?? []).find((o) => o.message.isSelf && o.message.messageClientId === message.messageClientId);
    if (resent) return { ...resent.message };
    if (this.blocked.has(`${to}<${from}`)) throw new NimDoubleError(this.refusalCode, 'account in block list');

    const createTime = this.now();
    const common = {
      ...message,
      messageServerId: String(++this.seq),
      createTime,
      senderId: from,
      receiverId: to,
      conversationType: 1 as const,
      sendingState: 1 as const,
      messageStatus: { errorCode: 200 },
    };
    const outgoing: V2NIMMessage = { ...common, conversationId: `${from}|1|${to}`, isSelf: true };
    const incoming: V2NIMMessage = { ...common, conversationId: `${to}|1|${from}`, isSelf: false };
    const recipient = this.online.get(to);
    this.own(from, outgoing, true);
    this.own(to, incoming, Boolean(recipient));
    this.touch(from, outgoing.conversationId, createTime, 0);
    this.touch(to, incoming.conversationId, createTime, 1);
    this.online.get(from)?.V2NIMConversationService.emit('onConversationChanged', [this.conversation(from, outgoing.conversationId)!]);
    if (recipient) {
      recipient.V2NIMMessageService.emit('onReceiveMessages', [{ ...incoming }]);
      recipient.V2NIMConversationService.emit('onConversationChanged', [this.conversation(to, incoming.conversationId)!]);
      recipient.V2NIMConversationService.emit('onTotalUnreadCountChanged', this.totalUnread(to));
    }
    return { ...outgoing };
  }

  /** @internal */
  notify(from: string, to: string, content: string): void {
    const note: V2NIMCustomNotification = { senderId: from, receiverId: to, conversationType: 1, timestamp: this.now(), content };
    const recipient = this.online.get(to);
    if (recipient) recipient.V2NIMNotificationService.emit('onReceiveCustomNotifications', [note]);
    else this.pendingNotifications.set(to, [...(this.pendingNotifications.get(to) ?? []), note]);
  }

  /** @internal */
  conversationList(owner: string): V2NIMConversation[] {
    return [...this.convs(owner).keys()]
      .map((id) => this.conversation(owner, id)!)
      .sort((a, b) => b.sortOrder - a.sortOrder);
  }

  /** @internal */
  clearUnread(owner: string, ids: string[]): V2NIMConversationOperationResult[] {
    const failures: V2NIMConversationOperationResult[] = [];
    const changed: V2NIMConversation[] = [];
    for (const id of ids) {
      const state = this.convs(owner).get(id);
      if (!state) {
        failures.push({ conversationId: id, error: new NimDoubleError(NimDoubleCode.conversationNotExist, 'conversation not exist') });
        continue;
      }
      state.unread = 0;
      changed.push(this.conversation(owner, id)!);
    }
    const client = this.online.get(owner);
    if (client && changed.length) {
      client.V2NIMConversationService.emit('onConversationChanged', changed);
      client.V2NIMConversationService.emit('onTotalUnreadCountChanged', this.totalUnread(owner));
    }
    return failures;
  }

  /** @internal */
  history(owner: string, option: V2NIMMessageListOption): V2NIMMessage[] {
    const cleared = this.clearedAt.get(`${owner}/${option.conversationId}`) ?? 0;
    const end = option.endTime || Infinity;
    const list = (this.messages.get(owner) ?? [])
      .map((o) => o.message)
      .filter((m) => m.conversationId === option.conversationId && m.createTime > cleared && m.createTime <= end && m.createTime >= (option.beginTime ?? 0))
      .sort((a, b) => (option.direction === 1 ? a.createTime - b.createTime : b.createTime - a.createTime));
    return list.slice(0, option.limit ?? 100).map((m) => ({ ...m }));
  }

  /** @internal clears only the owner's copy, as NetEase does. */
  clearHistory(owner: string, conversationId: string): void {
    this.clearedAt.set(`${owner}/${conversationId}`, this.now());
  }

  private own(owner: string, message: V2NIMMessage, delivered: boolean): void {
    this.messages.set(owner, [...(this.messages.get(owner) ?? []), { message, delivered }]);
  }

  private convs(owner: string): Map<string, ConversationState> {
    let map = this.conversationsByOwner.get(owner);
    if (!map) {
      map = new Map();
      this.conversationsByOwner.set(owner, map);
    }
    return map;
  }

  private touch(owner: string, id: string, time: number, unread: number): void {
    const state = this.convs(owner).get(id);
    if (state) {
      state.updateTime = time;
      state.unread += unread;
    } else {
      this.convs(owner).set(id, { unread, createTime: time, updateTime: time });
    }
  }

  private conversation(owner: string, id: string): V2NIMConversation | null {
    const state = this.convs(owner).get(id);
    if (!state) return null;
    const cleared = this.clearedAt.get(`${owner}/${id}`) ?? 0;
    const last = (this.messages.get(owner) ?? []).map((o) => o.message).filter((m) => m.conversationId === id && m.createTime > cleared).at(-1);
    return {
      conversationId: id,
      type: 1,
      stickTop: false,
      localExtension: '',
      serverExtension: '',
      unreadCount: state.unread,
      sortOrder: state.updateTime,
      createTime: state.createTime,
      updateTime: state.updateTime,
      lastMessage: last && {
        lastMessageState: 0,
        messageRefer: {
          senderId: last.senderId,
          receiverId: last.receiverId,
          messageClientId: last.messageClientId,
          messageServerId: last.messageServerId,
          createTime: last.createTime,
          conversationType: last.conversationType,
          conversationId: last.conversationId,
        },
        messageType: last.messageType,
        sendingState: last.sendingState,
        text: last.text,
        attachment: last.attachment,
        serverExtension: last.serverExtension,
      },
    };
  }
}

// Each is a `Pick<>` of the SDK's own service type (see NimClient in im.nim.ts).
type NimLoginApi = NimClient['V2NIMLoginService'];
type NimMessageApi = NimClient['V2NIMMessageService'];
type NimConversationApi = NimClient['V2NIMConversationService'];
type NimNotificationApi = NimClient['V2NIMNotificationService'];

/** One simulated device: `NIM.getInstance(...)` of the real SDK, backed by the shared cloud. */
export class NimDoubleSdk implements NimSdk {
  /** What the adapter passed to `getInstance`, for the tests to check (appkey, apiVersion, telemetry off). */
  readonly instances: { options: NIMInitializeOptions; otherOptions: NIMOtherOptions | undefined }[] = [];
  private client: NimDoubleClient | null = null;

  constructor(readonly cloud: NimCloud) {}

  getInstance(options: NIMInitializeOptions, otherOptions?: NIMOtherOptions): NimDoubleClient {
    this.instances.push({ options, otherOptions });
    this.client ??= new NimDoubleClient(this.cloud);
    return this.client;
  }

  /** The instance, once the adapter created it. */
  get nim(): NimDoubleClient {
    if (!this.client) throw new Error('No NIM instance yet: the adapter has not logged in.');
    return this.client;
  }
}

export class NimDoubleClient implements NimClient {
  readonly V2NIMLoginService: NimDoubleLoginService;
  readonly V2NIMMessageService: NimDoubleMessageService;
  readonly V2NIMMessageCreator: NimDoubleMessageCreator;
  readonly V2NIMConversationService: NimDoubleConversationService;
  readonly V2NIMConversationIdUtil: NimDoubleConversationIdUtil;
  readonly V2NIMNotificationService: NimDoubleNotificationService;
  account = '';

  constructor(readonly cloud: NimCloud) {
    this.V2NIMLoginService = new NimDoubleLoginService(this);
    this.V2NIMMessageService = new NimDoubleMessageService(this);
    this.V2NIMMessageCreator = new NimDoubleMessageCreator(cloud);
    this.V2NIMConversationService = new NimDoubleConversationService(this);
    this.V2NIMConversationIdUtil = new NimDoubleConversationIdUtil(this);
    this.V2NIMNotificationService = new NimDoubleNotificationService(this);
  }

  /** Every listener the adapter still holds on this instance. */
  get listenerCount(): number {
    return this.V2NIMLoginService.listenerCount() + this.V2NIMMessageService.listenerCount()
      + this.V2NIMConversationService.listenerCount() + this.V2NIMNotificationService.listenerCount();
  }

  /** @internal */
  requireLogin(): string {
    if (this.V2NIMLoginService.getLoginStatus() !== 1) throw new NimDoubleError(NimDoubleCode.illegalState, 'not logged in');
    return this.account;
  }

  /** @internal */
  kickedOffline(): void {
    this.V2NIMLoginService.setStatus(0, 0);
    this.V2NIMLoginService.emit('onKickedOffline', { reason: 1, reasonDesc: 'same account logged in elsewhere', clientType: 16, customClientType: 0 });
  }

  /** @internal */
  linkDropped(code: number): void {
    this.V2NIMLoginService.setStatus(2, 3);
    this.V2NIMLoginService.emit('onDisconnected', new NimDoubleError(code, 'disconnected'));
  }

  /** @internal */
  reconnectFailed(code: number): void {
    this.V2NIMLoginService.setStatus(0, 0);
    this.V2NIMLoginService.emit('onLoginFailed', new NimDoubleError(code, 'reconnect failed'));
  }
}

export class NimDoubleLoginService extends DoubleEmitter<V2NIMLoginListener> implements NimLoginApi {
  private loginStatus: V2NIMLoginStatus = 0;
  private connectStatus: V2NIMConnectStatus = 0;
  readonly calls: { login: { account: string; token: string; option: V2NIMLoginOption | undefined }[]; logout: number } = { login: [], logout: 0 };

  constructor(private readonly client: NimDoubleClient) {
    super();
  }

  async login(accountId: string, token: string, loginOption?: V2NIMLoginOption): Promise<void> {
    this.calls.login.push({ account: accountId, token, option: loginOption });
    if (this.loginStatus !== 0) throw new NimDoubleError(NimDoubleCode.illegalState, 'login: already logged in or logging in');
    this.setStatus(2, 2);
    await Promise.resolve();
    try {
      this.client.cloud.login(this.client, accountId, token);
    } catch (error) {
      this.setStatus(0, 0);
      this.emit('onLoginFailed', error as V2NIMError);
      throw error;
    }
    this.client.account = accountId;
    this.setStatus(1, 1);
    this.client.cloud.deliverPending(accountId);
  }

  async logout(): Promise<void> {
    this.calls.logout += 1;
    await Promise.resolve();
    this.client.cloud.logout(this.client, this.client.account);
    this.setStatus(0, 0);
  }

  getLoginStatus(): V2NIMLoginStatus {
    return this.loginStatus;
  }

  getConnectStatus(): V2NIMConnectStatus {
    return this.connectStatus;
  }

  getLoginUser(): string {
    return this.client.account;
  }

  /** @internal */
  setStatus(login: V2NIMLoginStatus, connect: V2NIMConnectStatus): void {
    if (login !== this.loginStatus) {
      this.loginStatus = login;
      this.emit('onLoginStatus', login);
    }
    if (connect !== this.connectStatus) {
      this.connectStatus = connect;
      this.emit('onConnectStatus', connect);
    }
  }
}

export class NimDoubleMessageService extends DoubleEmitter<V2NIMMessageListener> implements NimMessageApi {
  readonly sent: { message: V2NIMMessage; conversationId: string; params: V2NIMSendMessageParams | undefined }[] = [];

  constructor(private readonly client: NimDoubleClient) {
    super();
  }

  async sendMessage(message: V2NIMMessage, conversationId: string, params?: V2NIMSendMessageParams): Promise<V2NIMSendMessageResult> {
    this.sent.push({ message, conversationId, params });
    const from = this.client.requireLogin();
    const to = this.client.V2NIMConversationIdUtil.parseConversationTargetId(conversationId);
    if (!to || !conversationId.startsWith(`${from}|1|`)) throw new NimDoubleError(NimDoubleCode.invalidParameter, 'invalid conversationId');
    await Promise.resolve();
    try {
      const stored = this.client.cloud.send(from, to, message);
      return { message: stored };
    } catch (error) {
      message.sendingState = 2;
      message.messageStatus = { errorCode: (error as V2NIMError).code };
      throw error;
    }
  }

  async getMessageList(option: V2NIMMessageListOption): Promise<V2NIMMessage[]> {
    const owner = this.client.requireLogin();
    return this.client.cloud.history(owner, option);
  }

  async clearHistoryMessage(option: V2NIMClearHistoryMessageOption): Promise<void> {
    const owner = this.client.requireLogin();
    this.client.cloud.clearHistory(owner, option.conversationId);
  }
}

export class NimDoubleMessageCreator implements Pick<V2NIMMessageCreator, 'createTextMessage' | 'createCustomMessage'> {
  private seq = 0;

  constructor(private readonly cloud: NimCloud) {}

  createTextMessage(text: string): V2NIMMessage {
    if (!text) throw new NimDoubleError(NimDoubleCode.invalidParameter, 'text is empty');
    return this.create(0, { text });
  }

  createCustomMessage(text: string, rawAttachment: string): V2NIMMessage {
    return this.create(100, { text, attachment: { raw: rawAttachment } });
  }

  private create(messageType: 0 | 100, fields: Pick<V2NIMMessage, 'text' | 'attachment'>): V2NIMMessage {
    return {
      messageClientId: `cid-${++this.seq}-${Math.random().toString(36).slice(2, 8)}`,
      messageServerId: '',
      createTime: this.cloud.now(),
      senderId: '',
      receiverId: '',
      conversationType: 0,
      conversationId: '',
      isSelf: true,
      sendingState: 0,
      messageType,
      messageStatus: { errorCode: 200 },
      ...fields,
    };
  }
}

export class NimDoubleConversationService extends DoubleEmitter<V2NIMConversationListener> implements NimConversationApi {
  constructor(private readonly client: NimDoubleClient) {
    super();
  }

  async getConversationList(offset: number, limit: number): Promise<V2NIMConversationResult> {
    const owner = this.client.requireLogin();
    const all = this.client.cloud.conversationList(owner);
    const page = all.slice(offset, offset + limit);
    return { offset: offset + page.length, finished: offset + page.length >= all.length, conversationList: page };
  }

  async clearUnreadCountByIds(conversationIds: string[]): Promise<V2NIMConversationOperationResult[]> {
    const owner = this.client.requireLogin();
    return this.client.cloud.clearUnread(owner, conversationIds);
  }
}

export class NimDoubleConversationIdUtil implements Pick<V2NIMConversationIdUtil, 'p2pConversationId' | 'parseConversationTargetId'> {
  constructor(private readonly client: NimDoubleClient) {}

  p2pConversationId(accountId: string): string {
    return `${this.client.account}|1|${accountId}`;
  }

  parseConversationTargetId(conversationId: string): string {
    const prefix = `${this.client.account}|`;
    return conversationId.startsWith(prefix) ? conversationId.slice(prefix.length).slice(2) : '';
  }
}

export class NimDoubleNotificationService extends DoubleEmitter<V2NIMNotificationListener> implements NimNotificationApi {
  readonly sent: { conversationId: string; content: string; params: V2NIMSendCustomNotificationParams | undefined }[] = [];

  constructor(private readonly client: NimDoubleClient) {
    super();
  }

  async sendCustomNotification(conversationId: string, content: string, params?: V2NIMSendCustomNotificationParams): Promise<void> {
    this.sent.push({ conversationId, content, params });
    const from = this.client.requireLogin();
    const to = this.client.V2NIMConversationIdUtil.parseConversationTargetId(conversationId);
    if (!to) throw new NimDoubleError(NimDoubleCode.invalidParameter, 'invalid conversationId');
    this.client.cloud.notify(from, to, content);
  }
}
