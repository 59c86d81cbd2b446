/**
 * An in-memory double of exactly the NetEase chat-room V2 surface that chatroom.nim.ts uses,
 * typed from the SDK's own declarations, so an SDK upgrade that changes one of these
 * signatures breaks `tsc` here.
 *
 * `ChatroomCloud` plays the chat-room service for any number of `ChatroomDoubleSdk`s: rooms
 * with a creator, tokens, link addresses asked through `linkProvider`, text and custom messages,
 * member lists with paging, gag (chat-banned / temp-chat-banned) with the notification messages
 * the SDK delivers, member enter/exit (as the SDK does: a notification message *and* the
 * dedicated event), room closing and kicks. Nothing here touches the network.
 */
import type {
  V2NIMChatroomClientListener, V2NIMChatroomEnterResult, V2NIMChatroomInfo,
} from 'nim-web-sdk-ng/dist/v2/CHATROOM_BROWSER_SDK';
import type {
  V2NIMChatroomMember, V2NIMChatroomMemberListResult, V2NIMChatroomMemberQueryOption,
} from 'nim-web-sdk-ng/dist/v2/CHATROOM_BROWSER_SDK/V2NIMChatroomMemberService';
import type {
  V2NIMChatroomMessage, V2NIMChatroomMessageListOption, V2NIMChatroomMessageNotificationType, V2NIMChatroomNotificationAttachment,
  V2NIMSendChatroomMessageParams, V2NIMSendChatroomMessageResult,
} from 'nim-web-sdk-ng/dist/v2/CHATROOM_BROWSER_SDK/V2NIMChatroomMessageService';
import type {
  V2NIMChatroomEnterParams, V2NIMChatroomInitParams, V2NIMChatroomListener, V2NIMOtherParams,
} from 'nim-web-sdk-ng/dist/v2/CHATROOM_BROWSER_SDK/V2NIMChatroomService';
import { V2ErrorDouble } from './v2-error';
import type { ChatroomClient, ChatroomSdk } from '../chatroom.nim';
import { DoubleEmitter } from './emitter';

/** Real V2 codes (V2NIMErrorCode in the SDK bundle) the double answers with. */
export const ChatroomDoubleCode = {
  invalidToken: 102302,
  linkUnavailable: 113304,
  roomNotExist: 113404,
  roomClosed: 113406,
  memberChatBanned: 114421,
  ownerOrManagerRequired: 114432,
  illegalState: 190002,
  invalidParameter: 191004,
} as const;

export class ChatroomDoubleError extends V2ErrorDouble {}

interface RoomState {
  creator: string;
  open: boolean;
  members: Map<string, V2NIMChatroomMember>;
  messages: V2NIMChatroomMessage[];
  clients: Set<ChatroomDoubleClient>;
  createTime: number;
}

export class ChatroomCloud {
  private readonly tokens = new Map<string, string>();
  private readonly rooms = new Map<string, RoomState>();
  private clock = 1_700_000_000_000;
  private seq = 0;
  /** The addresses a valid linkProvider answer must contain (the app's getChatRoomAddress). */
  readonly validAddress = 'wss://chatlink.test/room';

  register(account: string, token: string): void {
    this.tokens.set(account, token);
  }

  createRoom(roomId: string, creator: string): void {
    this.rooms.set(roomId, { creator, open: true, members: new Map(), messages: [], clients: new Set(), createTime: this.now() });
  }

  now(): number {
    this.clock += 1000;
    return this.clock;
  }

  nextId(): string {
    return `crm-${++this.seq}`;
  }

  /** A message already in the room's history before anyone in the test entered. */
  seed(roomId: string, from: string, text: string): void {
    this.room(roomId).messages.push(this.message(roomId, from, from, { messageType: 0, text }));
  }

  /**
   * The app's server sends into the room through NetEase's server API (a paid gift, a notice) on
   * `from`'s behalf: NetEase stamps it with the server API's client type (RESTFUL, 32).
   */
  serverPost(roomId: string, from: string, nick: string, attach: Record<string, unknown>): void {
    const room = this.room(roomId);
    const message = { ...this.message(roomId, from, nick, { messageType: 100, attachment: { raw: JSON.stringify(attach) } }), senderClientType: 32 };
    room.messages.push(message);
    for (const client of room.clients) client.V2NIMChatroomService.emit('onReceiveMessages', [{ ...message, isSelf: client.account === from }]);
  }

  /** A member present without a client of its own in the test (online), or seen earlier and gone (offline). */
  seedMember(roomId: string, account: string, online: boolean): void {
    this.room(roomId).members.set(account, this.member(roomId, account, account, undefined, online));
  }

  /** The host ended the live: every client in the room is kicked with "room invalid". */
  closeRoom(roomId: string): void {
    const room = this.room(roomId);
    room.open = false;
    const clients = [...room.clients];
    room.clients.clear();
    for (const member of room.members.values()) member.isOnline = false;
    for (const client of clients) client.kicked({ kickedReason: 1, serverExtension: '' });
  }

  /** A manager removes `account` from the room. */
  kick(roomId: string, account: string): void {
    const room = this.room(roomId);
    for (const client of [...room.clients]) {
      if (client.account !== account) continue;
      room.clients.delete(client);
      client.kicked({ kickedReason: 2, serverExtension: '' });
    }
    this.leave(roomId, account);
  }

  /** The server sets a temporary gag (no dedicated client API in the adapter). */
  tempGag(roomId: string, operator: string, account: string, gagged: boolean): void {
    const member = this.room(roomId).members.get(account);
    if (member) {
      member.tempChatBanned = gagged;
      member.tempChatBannedDuration = gagged ? 600 : 0;
    }
    this.notify(roomId, operator, gagged ? 8 : 9, [account], { tempChatBanned: gagged, tempChatBannedDuration: gagged ? 600 : 0 });
  }

  onlineCount(roomId: string): number {
    return [...this.room(roomId).members.values()].filter((m) => m.isOnline).length;
  }

  /** @internal */
  enter(client: ChatroomDoubleClient, roomId: string, params: V2NIMChatroomEnterParams, addresses: string[]): V2NIMChatroomEnterResult {
    if (!addresses.includes(this.validAddress)) throw new ChatroomDoubleError(ChatroomDoubleCode.linkUnavailable, 'no link address');
    const room = this.rooms.get(roomId);
    if (!room) throw new ChatroomDoubleError(ChatroomDoubleCode.roomNotExist, 'chatroom not exist');
    if (!room.open) throw new ChatroomDoubleError(ChatroomDoubleCode.roomClosed, 'chatroom closed');
    const account = params.accountId ?? '';
    if (!params.token || this.tokens.get(account) !== params.token) throw new ChatroomDoubleError(ChatroomDoubleCode.invalidToken, 'invalid token');
    const earlier = room.members.get(account);
    const member = this.member(roomId, account, params.roomNick ?? account, params.roomAvatar, true, params.serverExtension);
    if (earlier) {
      member.chatBanned = earlier.chatBanned;
      member.tempChatBanned = earlier.tempChatBanned;
      member.tempChatBannedDuration = earlier.tempChatBannedDuration;
    }
    room.members.set(account, member);
    room.clients.add(client);
    // As the SDK does: a MEMBER_ENTER notification message, and the dedicated event from it.
    this.notify(roomId, account, 0, [account], {}, client);
    for (const other of room.clients) if (other !== client) other.V2NIMChatroomService.emit('onChatroomMemberEnter', { ...member });
    return { chatroom: this.info(roomId), selfMember: { ...member } };
  }

  /** @internal */
  exit(client: ChatroomDoubleClient, roomId: string): void {
    const room = this.rooms.get(roomId);
    if (!room?.clients.delete(client)) return;
    this.leave(roomId, client.account);
  }

  /** @internal */
  send(client: ChatroomDoubleClient, roomId: string, message: V2NIMChatroomMessage): V2NIMChatroomMessage {
    const room = this.room(roomId);
    if (!room.clients.has(client)) throw new ChatroomDoubleError(ChatroomDoubleCode.illegalState, 'not in the chatroom');
    const sender = room.members.get(client.account);
    if (sender?.chatBanned || sender?.tempChatBanned) throw new ChatroomDoubleError(ChatroomDoubleCode.memberChatBanned, 'member chat banned');
    const stored: V2NIMChatroomMessage = {
      ...message,
      roomId,
      senderId: client.account,
      // NetEase stamps sender and client type itself: a client cannot pass for the server API.
      senderClientType: 16,
      createTime: this.now(),
      sendingState: 1,
      userInfoConfig: { senderNick: sender?.roomNick ?? client.account, ...(sender?.roomAvatar ? { senderAvatar: sender.roomAvatar } : {}) },
    };
    room.messages.push(stored);
    for (const other of room.clients) if (other !== client) other.V2NIMChatroomService.emit('onReceiveMessages', [{ ...stored, isSelf: false }]);
    return { ...stored, isSelf: true };
  }

  /** @internal */
  history(roomId: string, option: V2NIMChatroomMessageListOption, self: string): V2NIMChatroomMessage[] {
    const types = option.messageTypes;
    const list = this.room(roomId).messages
      .filter((m) => !types || types.includes(m.messageType))
      .sort((a, b) => (option.direction === 1 ? a.createTime - b.createTime : b.createTime - a.createTime));
    return list.slice(0, option.limit ?? 100).map((m) => ({ ...m, isSelf: m.senderId === self }));
  }

  /** @internal pageToken is the offset, as an opaque string. */
  members(roomId: string, option: V2NIMChatroomMemberQueryOption): V2NIMChatroomMemberListResult {
    const all = [...this.room(roomId).members.values()].filter((m) => !option.onlyOnline || m.isOnline);
    const offset = Number(option.pageToken || '0');
    const page = all.slice(offset, offset + option.limit);
    const next = offset + page.length;
    return { pageToken: next < all.length ? String(next) : '', finished: next >= all.length, memberList: page.map((m) => ({ ...m })) };
  }

  /** @internal */
  setChatBanned(roomId: string, operator: string, account: string, banned: boolean): void {
    const room = this.room(roomId);
    if (operator !== room.creator) throw new ChatroomDoubleError(ChatroomDoubleCode.ownerOrManagerRequired, 'owner or manager required');
    const member = room.members.get(account);
    if (!member) throw new ChatroomDoubleError(ChatroomDoubleCode.invalidParameter, 'member not exist');
    member.chatBanned = banned;
    this.notify(roomId, operator, banned ? 4 : 5, [account], { chatBanned: banned });
  }

  private leave(roomId: string, account: string): void {
    const room = this.room(roomId);
    const member = room.members.get(account);
    if (!member) return;
    member.isOnline = false;
    this.notify(roomId, account, 1, [account], {});
    for (const other of room.clients) other.V2NIMChatroomService.emit('onChatroomMemberExit', account);
  }

  /** A notification message to every client in the room (except `skip`), as the SDK delivers it. */
  private notify(
    roomId: string, operator: string, type: V2NIMChatroomMessageNotificationType, targetIds: string[],
    extra: Partial<V2NIMChatroomNotificationAttachment> & Record<string, unknown>, skip?: ChatroomDoubleClient,
  ): void {
    const room = this.room(roomId);
    const attachment: V2NIMChatroomNotificationAttachment = { type, targetIds, operatorId: operator, ...extra };
    const message = this.message(roomId, operator, operator, { messageType: 5, attachment });
    for (const client of room.clients) if (client !== skip) client.V2NIMChatroomService.emit('onReceiveMessages', [{ ...message }]);
  }

  private message(roomId: string, senderId: string, nick: string, fields: Pick<V2NIMChatroomMessage, 'messageType' | 'text' | 'attachment'>): V2NIMChatroomMessage {
    return {
      messageClientId: this.nextId(),
      senderClientType: 16,
      createTime: this.now(),
      senderId,
      roomId,
      isSelf: false,
      sendingState: 1,
      userInfoConfig: { senderNick: nick },
      ...fields,
    };
  }

  private member(roomId: string, accountId: string, nick: string, avatar: string | undefined, online: boolean, ext?: string): V2NIMChatroomMember {
    return {
      roomId,
      accountId,
      memberRole: this.rooms.get(roomId)?.creator === accountId ? 1 : 3,
      roomNick: nick,
      ...(avatar ? { roomAvatar: avatar } : {}),
      ...(ext ? { serverExtension: ext } : {}),
      isOnline: online,
      blocked: false,
      chatBanned: false,
      tempChatBanned: false,
      tempChatBannedDuration: 0,
      updateTime: this.now(),
      valid: true,
      multiEnterInfo: [],
    };
  }

  private info(roomId: string): V2NIMChatroomInfo {
    const room = this.room(roomId);
    return {
      roomId, roomName: roomId, announcement: '', liveUrl: '', isValidRoom: room.open, serverExtension: '', queueLevelMode: 0,
      creatorAccountId: room.creator, createTime: room.createTime, onlineUserCount: this.onlineCount(roomId), chatBanned: false,
    };
  }

  private room(roomId: string): RoomState {
    const room = this.rooms.get(roomId);
    if (!room) throw new ChatroomDoubleError(ChatroomDoubleCode.roomNotExist, 'chatroom not exist');
    return room;
  }
}

/** One simulated device's `V2NIMChatroomClient` class (its static side). */
export class ChatroomDoubleSdk implements ChatroomSdk {
  readonly created: { client: ChatroomDoubleClient; initParams: V2NIMChatroomInitParams; otherParams: V2NIMOtherParams | undefined }[] = [];
  readonly destroyed: number[] = [];
  private nextInstanceId = 1;

  constructor(readonly cloud: ChatroomCloud) {}

  newInstance(initParams: V2NIMChatroomInitParams, otherParams?: V2NIMOtherParams): ChatroomDoubleClient {
    const client = new ChatroomDoubleClient(this.cloud, this.nextInstanceId++);
    this.created.push({ client, initParams, otherParams });
    return client;
  }

  destroyInstance(instanceId: number): void {
    this.destroyed.push(instanceId);
    this.created.find((c) => c.client.getInstanceId() === instanceId)?.client.destroy();
  }

  /** Clients neither destroyed nor exited. */
  get live(): ChatroomDoubleClient[] {
    return this.created.map((c) => c.client).filter((c) => !c.destroyed);
  }
}

export class ChatroomDoubleClient extends DoubleEmitter<V2NIMChatroomClientListener> implements ChatroomClient {
  readonly V2NIMChatroomService: ChatroomDoubleService;
  readonly V2NIMChatroomMessageCreator: ChatroomDoubleMessageCreator;
  readonly enterCalls: { roomId: string; params: V2NIMChatroomEnterParams }[] = [];
  account = '';
  roomId = '';
  destroyed = false;

  constructor(readonly cloud: ChatroomCloud, private readonly instanceId: number) {
    super();
    this.V2NIMChatroomService = new ChatroomDoubleService(this);
    this.V2NIMChatroomMessageCreator = new ChatroomDoubleMessageCreator(cloud);
  }

  async enter(roomId: string, enterParams: V2NIMChatroomEnterParams): Promise<V2NIMChatroomEnterResult> {
    this.enterCalls.push({ roomId, params: enterParams });
    if (this.destroyed) throw new ChatroomDoubleError(ChatroomDoubleCode.illegalState, 'instance destroyed');
    const account = enterParams.accountId ?? '';
    // Argument order as the 10.8.1 bundle really calls it: linkProvider(account, roomId), not the .d.ts order.
    const addresses = await enterParams.linkProvider(account, roomId);
    this.account = account;
    this.roomId = roomId;
    const result = this.cloud.enter(this, roomId, enterParams, addresses);
    this.emit('onChatroomEntered');
    return result;
  }

  exit(): void {
    if (this.roomId) this.cloud.exit(this, this.roomId);
    this.emit('onChatroomExited');
  }

  getInstanceId(): number {
    return this.instanceId;
  }

  /** @internal */
  kicked(info: V2NIMChatroomClientListener['onChatroomKicked'][0]): void {
    this.emit('onChatroomKicked', info);
  }

  /** @internal */
  destroy(): void {
    this.destroyed = true;
  }

  /** Listeners the adapter still holds on this client and its service. */
  get totalListeners(): number {
    return this.listenerCount() + this.V2NIMChatroomService.listenerCount();
  }
}

export class ChatroomDoubleService extends DoubleEmitter<V2NIMChatroomListener> implements Pick<ChatroomClient['V2NIMChatroomService'], keyof ChatroomClient['V2NIMChatroomService']> {
  readonly memberQueries: V2NIMChatroomMemberQueryOption[] = [];
  readonly historyQueries: V2NIMChatroomMessageListOption[] = [];

  constructor(private readonly client: ChatroomDoubleClient) {
    super();
  }

  async sendMessage(message: V2NIMChatroomMessage, _params?: V2NIMSendChatroomMessageParams): Promise<V2NIMSendChatroomMessageResult> {
    await Promise.resolve();
    return { message: this.client.cloud.send(this.client, this.entered(), message) };
  }

  async getMessageList(option: V2NIMChatroomMessageListOption): Promise<V2NIMChatroomMessage[]> {
    this.historyQueries.push(option);
    return this.client.cloud.history(this.entered(), option, this.client.account);
  }

  async getMemberListByOption(option: V2NIMChatroomMemberQueryOption): Promise<V2NIMChatroomMemberListResult> {
    this.memberQueries.push(option);
    return this.client.cloud.members(this.entered(), option);
  }

  async setMemberChatBannedStatus(accountId: string, chatBanned: boolean, _notificationExtension?: string): Promise<void> {
    this.client.cloud.setChatBanned(this.entered(), this.client.account, accountId, chatBanned);
  }

  private entered(): string {
    if (!this.client.roomId || this.client.destroyed) throw new ChatroomDoubleError(ChatroomDoubleCode.illegalState, 'not in the chatroom');
    return this.client.roomId;
  }
}

export class ChatroomDoubleMessageCreator implements Pick<ChatroomClient['V2NIMChatroomMessageCreator'], 'createTextMessage' | 'createCustomMessage'> {
  constructor(private readonly cloud: ChatroomCloud) {}

  createTextMessage(text: string): V2NIMChatroomMessage {
    if (!text) throw new ChatroomDoubleError(ChatroomDoubleCode.invalidParameter, 'text is empty');
    return this.create({ messageType: 0, text });
  }

  createCustomMessage(rawAttachment: string): V2NIMChatroomMessage {
    return this.create({ messageType: 100, attachment: { raw: rawAttachment } });
  }

  private create(fields: Pick<V2NIMChatroomMessage, 'messageType' | 'text' | 'attachment'>): V2NIMChatroomMessage {
    return {
      messageClientId: this.cloud.nextId(), senderClientType: 16, createTime: 0, senderId: '', roomId: '', isSelf: true, sendingState: 0, ...fields,
    };
  }
}
