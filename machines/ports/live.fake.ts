/**
 * In-memory live rooms (live.port.ts). `FakeLiveNetwork` plays the live endpoints for any
 * number of `FakeLiveApi` clients (auto mode: hosts only may go live, one room per host,
 * beginning again answers the same room, joins count into joinNum, the host's private call
 * shows as userStatus 1, end answers the stats and is safe to repeat; with a
 * FakeChatroomNetwork it opens and closes the room's chat room as the server does).
 * `FakeLiveMediaNetwork` plays the media channels for `FakeLiveMedia` clients (a viewer sees
 * the host's first frame when both are in; the host leaving or coming back is told to viewers).
 * In manual mode every call waits for the test (`api.pending.next('begin').resolve(room)`),
 * and `emit` pushes any media event.
 */
import type { FakeChatroomNetwork } from './chatroom.fake';
import type { LiveApiPort, LiveMediaEvent, LiveMediaPort, LiveRoom, LiveStats } from './live.port';
import { LiveApiError, LiveHostStatus, LiveRoomState, WhoBlock } from './live.port';
import { PendingCalls } from './pending';

export const FAKE_TEXT_HOSTS_ONLY = 'Only hosts can go live.';
export const FAKE_TEXT_NO_ROOM = 'This host has no live room.';

export interface FakeLiveUser {
  userId: number;
  account: string;
  nickname: string;
  isHost: boolean;
}

interface Room {
  info: LiveRoom;
  viewers: Set<number>;
  gifts: number;
  income: number;
  startedAt: number;
  endedAt: number | null;
}

export class FakeLiveNetwork {
  private readonly users = new Map<number, FakeLiveUser>();
  private readonly rooms = new Map<number, Room>();
  private readonly inCall = new Set<number>();
  private seq = 0;
  /** Milliseconds since the epoch as the fake server sees them. */
  now = 1_700_000_000_000;

  constructor(private readonly chatrooms?: FakeChatroomNetwork) {}

  register(user: FakeLiveUser): void {
    this.users.set(user.userId, user);
  }

  /** The host's room, live or last. */
  roomOf(hostUserId: number): LiveRoom | undefined {
    return this.rooms.get(hostUserId)?.info;
  }

  /** The host's private call starts or ends (userStatus of joins). */
  setInCall(hostUserId: number, inCall: boolean): void {
    if (inCall) this.inCall.add(hostUserId);
    else this.inCall.delete(hostUserId);
  }

  /** The service ends the room (heartbeat window passed, or forced). */
  close(hostUserId: number): void {
    const room = this.rooms.get(hostUserId);
    if (!room || room.info.liveRoomState === LiveRoomState.ended) return;
    room.info = { ...room.info, liveRoomState: LiveRoomState.ended };
    room.endedAt = this.now;
    this.chatrooms?.close(room.info.yxRoomId);
  }

  /** A paid gift in the room: counts toward the stats and the wishlist. */
  gift(hostUserId: number, giftId: number, giftNum: number, value: number): void {
    const room = this.rooms.get(hostUserId);
    if (!room) return;
    room.gifts += giftNum;
    room.income += value;
    room.info = {
      ...room.info,
      wishlist: room.info.wishlist.map((w) => {
        if (w.giftId !== giftId) return w;
        const done = Math.min(w.giftNum, w.compelteGiftNum + giftNum);
        return { ...w, compelteGiftNum: done, ratio: w.giftNum > 0 ? done / w.giftNum : 1, completed: done >= w.giftNum };
      }),
    };
  }

  /** @internal */
  user(userId: number): FakeLiveUser {
    const user = this.users.get(userId);
    if (!user) throw new LiveApiError(401, 'Token invalid, please log in again');
    return user;
  }

  /** @internal */
  checkPermission(userId: number): void {
    if (!this.user(userId).isHost) throw new LiveApiError(1000, FAKE_TEXT_HOSTS_ONLY);
  }

  /** @internal */
  begin(userId: number, setting: { title: string; privateCallOpen: boolean }): LiveRoom {
    this.checkPermission(userId);
    const user = this.user(userId);
    const live = this.rooms.get(userId);
    if (live && live.info.liveRoomState === LiveRoomState.live) {
      live.info = { ...live.info, title: setting.title, privateCallOpen: setting.privateCallOpen };
      return live.info;
    }
    const n = ++this.seq;
    const info: LiveRoom = {
      userId, yxAccid: user.account, nickname: user.nickname, title: setting.title,
      agoraChannelId: `live-${userId}-${n}`, yxRoomId: `room-${userId}-${n}`,
      joinNum: 0, privateCallOpen: setting.privateCallOpen, wishlist: live?.info.wishlist ?? [],
      userStatus: LiveHostStatus.inRoom, liveRoomState: LiveRoomState.live, isBlockUser: false, whoBlock: WhoBlock.none,
    };
    this.rooms.set(userId, { info, viewers: new Set(), gifts: 0, income: 0, startedAt: this.now, endedAt: null });
    this.chatrooms?.open(info.yxRoomId, user.account);
    return info;
  }

  /** @internal */
  heartbeat(userId: number, roomId: string): { ended: boolean } {
    const room = this.rooms.get(userId);
    return { ended: !room || room.info.yxRoomId !== roomId || room.info.liveRoomState === LiveRoomState.ended };
  }

  /** @internal */
  setPrivateCall(userId: number, open: boolean): void {
    const room = this.rooms.get(userId);
    if (!room || room.info.liveRoomState !== LiveRoomState.live) throw new LiveApiError(1000, 'You are not live.');
    room.info = { ...room.info, privateCallOpen: open };
  }

  /** @internal */
  end(userId: number): LiveStats {
    const room = this.rooms.get(userId);
    if (!room) throw new LiveApiError(1000, 'You are not live.');
    this.close(userId);
    return {
      durationSec: Math.round(((room.endedAt ?? this.now) - room.startedAt) / 1000),
      viewers: room.viewers.size, gifts: room.gifts, income: room.income,
    };
  }

  /** @internal */
  join(userId: number, hostUserId: number): LiveRoom {
    const room = this.rooms.get(hostUserId);
    if (!room) throw new LiveApiError(1000, FAKE_TEXT_NO_ROOM);
    if (room.info.liveRoomState === LiveRoomState.live && !room.viewers.has(userId)) {
      room.viewers.add(userId);
      room.info = { ...room.info, joinNum: room.info.joinNum + 1 };
    }
    return { ...room.info, userStatus: this.inCall.has(hostUserId) ? LiveHostStatus.inCall : LiveHostStatus.inRoom };
  }
}

export class FakeLiveApi implements LiveApiPort {
  readonly pending = new PendingCalls();

  constructor(
    private readonly network: FakeLiveNetwork = new FakeLiveNetwork(),
    /** The signed-in person's user id. */
    private readonly userId = 0,
    private readonly mode: 'auto' | 'manual' = 'auto',
  ) {}

  async checkPermission(): Promise<void> {
    if (this.mode === 'manual') return this.pending.add<void>('checkPermission', []);
    this.network.checkPermission(this.userId);
  }

  async begin(setting: { title: string; cover?: string; privateCallOpen: boolean }): Promise<LiveRoom> {
    if (this.mode === 'manual') return this.pending.add<LiveRoom>('begin', [setting]);
    return this.network.begin(this.userId, setting);
  }

  async heartbeat(roomId: string): Promise<{ ended: boolean }> {
    if (this.mode === 'manual') return this.pending.add<{ ended: boolean }>('heartbeat', [roomId]);
    return this.network.heartbeat(this.userId, roomId);
  }

  async setPrivateCall(open: boolean): Promise<void> {
    if (this.mode === 'manual') return this.pending.add<void>('setPrivateCall', [open]);
    this.network.setPrivateCall(this.userId, open);
  }

  async end(): Promise<LiveStats> {
    if (this.mode === 'manual') return this.pending.add<LiveStats>('end', []);
    return this.network.end(this.userId);
  }

  async join(hostUserId: number): Promise<LiveRoom> {
    if (this.mode === 'manual') return this.pending.add<LiveRoom>('join', [hostUserId]);
    return this.network.join(this.userId, hostUserId);
  }

  async leave(hostUserId: number): Promise<void> {
    if (this.mode === 'manual') return this.pending.add<void>('leave', [hostUserId]);
  }
}

interface Channel {
  host: FakeLiveMedia | null;
  viewers: Set<FakeLiveMedia>;
}

export class FakeLiveMediaNetwork {
  private readonly channels = new Map<string, Channel>();

  private channel(id: string): Channel {
    let channel = this.channels.get(id);
    if (!channel) this.channels.set(id, (channel = { host: null, viewers: new Set() }));
    return channel;
  }

  /** @internal */
  publish(port: FakeLiveMedia, channelId: string): void {
    const channel = this.channel(channelId);
    channel.host = port;
    for (const viewer of channel.viewers) {
      viewer.push({ type: 'hostJoined' });
      viewer.push({ type: 'firstRemoteFrame' });
    }
  }

  /** @internal */
  watch(port: FakeLiveMedia, channelId: string): void {
    const channel = this.channel(channelId);
    channel.viewers.add(port);
    if (channel.host) port.push({ type: 'firstRemoteFrame' });
  }

  /** @internal */
  leave(port: FakeLiveMedia, channelId: string): void {
    const channel = this.channel(channelId);
    channel.viewers.delete(port);
    if (channel.host !== port) return;
    channel.host = null;
    for (const viewer of channel.viewers) viewer.push({ type: 'hostLeft' });
  }
}

export class FakeLiveMedia implements LiveMediaPort {
  readonly pending = new PendingCalls();
  private readonly listeners = new Set<(event: LiveMediaEvent) => void>();
  /** The channel this client is in (publishing or watching), or null. */
  channel: string | null = null;

  constructor(
    private readonly network: FakeLiveMediaNetwork = new FakeLiveMediaNetwork(),
    private readonly mode: 'auto' | 'manual' = 'auto',
  ) {}

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Test hook: deliver any event to the subscribers. */
  emit(event: LiveMediaEvent): void {
    this.push(event);
  }

  /** @internal */
  push(event: LiveMediaEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  async publish(channelId: string, account: string): Promise<void> {
    if (this.mode === 'manual') await this.pending.add<void>('publish', [channelId, account]);
    else this.network.publish(this, channelId);
    this.channel = channelId;
  }

  async watch(channelId: string, account: string): Promise<void> {
    if (this.mode === 'manual') await this.pending.add<void>('watch', [channelId, account]);
    else this.network.watch(this, channelId);
    this.channel = channelId;
  }

  async leave(): Promise<void> {
    if (this.mode === 'manual') await this.pending.add<void>('leave', []);
    else if (this.channel !== null) this.network.leave(this, this.channel);
    this.channel = null;
  }

  subscribe(listener: (event: LiveMediaEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
