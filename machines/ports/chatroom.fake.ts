/**
 * In-memory chat rooms. `FakeChatroomNetwork` plays the service for any number of
 * `FakeChatroomPort` clients (auto mode: rooms opened for an owner, members with nick and
 * avatar (the registered record when there is one), messages to every member but the sender
 * with the member's profile as their only attach, the service's own posts marked fromServer,
 * history newest first, gags by the owner only, one membership per account, room close); in manual mode every call waits for the
 * test (`port.pending.next('enter').resolve()`), and `emit` pushes any event to a room's
 * subscribers.
 */
import { MEMBER_ATTACH_KEYS } from './chatroom.port';
import type {
  ChatroomEntry, ChatroomEvent, ChatroomMember, ChatroomMessage, ChatroomPort,
} from './chatroom.port';
import { PendingCalls } from './pending';

/** A refusal of the fake service; `code` follows the reference hub (404 no room, 403 not allowed, 13004 gagged). */
export class FakeChatroomError extends Error {
  override name = 'FakeChatroomError';
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

interface Member {
  port: FakeChatroomPort;
  entry: ChatroomEntry;
}

interface Room {
  owner: string;
  members: Map<string, Member>;
  gagged: Set<string>;
  history: ChatroomMessage[];
}

export class FakeChatroomNetwork {
  private readonly tokens = new Map<string, string>();
  private readonly profiles = new Map<string, { nick: string; avatar?: string }>();
  private readonly rooms = new Map<string, Room>();
  private seq = 0;
  private clock = 1_700_000_000_000;

  /**
   * An account of the service. With a `profile` (the service's record), members see that nick
   * and avatar whatever the account enters with; without one, as it entered (tests that do not care).
   */
  register(account: string, token: string, profile?: { nick: string; avatar?: string }): void {
    this.tokens.set(account, token);
    if (profile) this.profiles.set(account, profile);
  }

  open(roomId: string, owner: string): void {
    const room = this.rooms.get(roomId);
    if (room) room.owner = owner;
    else this.rooms.set(roomId, { owner, members: new Map(), gagged: new Set(), history: [] });
  }

  close(roomId: string): void {
    const room = this.rooms.get(roomId);
    if (!room) return;
    this.rooms.delete(roomId);
    for (const m of room.members.values()) {
      m.port.forget(roomId);
      m.port.deliver(roomId, { type: 'closed', reason: 'roomClosed' });
    }
  }

  /**
   * The service posts a message into a room on a member's behalf (a live gift once paid): it
   * goes to every member, the sender too, and into the history. Undefined when the room is not open.
   */
  post(roomId: string, body: { from: string; fromNick: string; text?: string; attach?: Record<string, unknown> }): ChatroomMessage | undefined {
    const room = this.rooms.get(roomId);
    if (!room) return undefined;
    this.clock += 1;
    const message: ChatroomMessage = {
      idServer: `cr${++this.seq}`,
      roomId,
      from: body.from,
      fromNick: body.fromNick,
      ...(body.text !== undefined ? { text: body.text } : {}),
      ...(body.attach !== undefined ? { attach: body.attach } : {}),
      fromServer: true,
      time: this.clock,
    };
    room.history.push(message);
    this.broadcast(room, roomId, { type: 'message', message });
    return message;
  }

  /** A network fault on `account`'s link: like the local adapter, the client leaves and enters its rooms again. */
  dropLink(account: string): void {
    for (const [roomId, room] of this.rooms) {
      const member = room.members.get(account);
      if (!member) continue;
      this.leave(member.port, roomId);
      this.enter(member.port, roomId, member.entry);
    }
  }

  /** @internal */
  enter(port: FakeChatroomPort, roomId: string, asEntered: ChatroomEntry): void {
    if (this.tokens.get(asEntered.account) !== asEntered.token) throw new FakeChatroomError(-10026, 'account or token invalid');
    const record = this.profiles.get(asEntered.account);
    const { avatar: _avatar, ...rest } = asEntered;
    const entry: ChatroomEntry = record
      ? { ...rest, nick: record.nick, ...(record.avatar !== undefined ? { avatar: record.avatar } : {}) }
      : asEntered;
    const room = this.rooms.get(roomId);
    if (!room) throw new FakeChatroomError(404, 'no such room');
    const earlier = room.members.get(entry.account);
    if (earlier && earlier.port !== port) {
      earlier.port.forget(roomId);
      earlier.port.deliver(roomId, { type: 'closed', reason: 'kicked' });
    }
    room.members.set(entry.account, { port, entry });
    if (!earlier) this.broadcast(room, roomId, { type: 'memberEnter', member: this.memberView(room, entry) }, port);
  }

  /** @internal */
  leave(port: FakeChatroomPort, roomId: string): void {
    const room = this.rooms.get(roomId);
    const member = room && [...room.members.values()].find((m) => m.port === port);
    if (!room || !member) return;
    room.members.delete(member.entry.account);
    this.broadcast(room, roomId, { type: 'memberExit', account: member.entry.account });
  }

  /** @internal */
  send(port: FakeChatroomPort, roomId: string, body: { text?: string; attach?: Record<string, unknown> }): ChatroomMessage {
    const { room, member } = this.memberOf(port, roomId);
    if (room.gagged.has(member.entry.account)) throw new FakeChatroomError(13004, 'gagged');
    const foreign = Object.keys(body.attach ?? {}).find((key) => !MEMBER_ATTACH_KEYS.includes(key));
    if (foreign !== undefined) throw new FakeChatroomError(403, `a member's message cannot carry ${foreign}`);
    this.clock += 1;
    const message: ChatroomMessage = {
      idServer: `cr${++this.seq}`,
      roomId,
      from: member.entry.account,
      fromNick: member.entry.nick,
      ...(body.text !== undefined ? { text: body.text } : {}),
      ...(body.attach !== undefined ? { attach: body.attach } : {}),
      time: this.clock,
    };
    room.history.push(message);
    this.broadcast(room, roomId, { type: 'message', message }, port);
    return message;
  }

  /** @internal */
  members(port: FakeChatroomPort, roomId: string, limit: number): ChatroomMember[] {
    const { room } = this.memberOf(port, roomId);
    return [...room.members.values()].slice(0, limit).map((m) => this.memberView(room, m.entry));
  }

  /** @internal */
  history(port: FakeChatroomPort, roomId: string, limit: number): ChatroomMessage[] {
    const { room } = this.memberOf(port, roomId);
    return room.history.slice(-limit).reverse();
  }

  /** @internal */
  setGagged(port: FakeChatroomPort, roomId: string, account: string, gagged: boolean): void {
    const { room, member } = this.memberOf(port, roomId);
    if (member.entry.account !== room.owner) throw new FakeChatroomError(403, 'only the owner may gag');
    if (gagged) room.gagged.add(account);
    else room.gagged.delete(account);
    this.broadcast(room, roomId, { type: 'gag', account, gagged });
  }

  private memberOf(port: FakeChatroomPort, roomId: string): { room: Room; member: Member } {
    const room = this.rooms.get(roomId);
    const member = room && [...room.members.values()].find((m) => m.port === port);
    if (!room || !member) throw new FakeChatroomError(403, 'not in this room');
    return { room, member };
  }

  private memberView(room: Room, entry: ChatroomEntry): ChatroomMember {
    return {
      account: entry.account,
      nick: entry.nick,
      ...(entry.avatar !== undefined ? { avatar: entry.avatar } : {}),
      gagged: room.gagged.has(entry.account),
      ...(entry.ext !== undefined ? { ext: entry.ext } : {}),
    };
  }

  private broadcast(room: Room, roomId: string, event: ChatroomEvent, except?: FakeChatroomPort): void {
    for (const m of [...room.members.values()]) if (m.port !== except) m.port.deliver(roomId, event);
  }
}

export class FakeChatroomPort implements ChatroomPort {
  readonly pending = new PendingCalls();
  private readonly listeners = new Map<string, Set<(event: ChatroomEvent) => void>>();
  private readonly rooms = new Set<string>();

  constructor(
    private readonly network: FakeChatroomNetwork = new FakeChatroomNetwork(),
    private readonly mode: 'auto' | 'manual' = 'auto',
  ) {}

  /** Subscribers of one room, or of all rooms. */
  listenerCount(roomId?: string): number {
    if (roomId !== undefined) return this.listeners.get(roomId)?.size ?? 0;
    return [...this.listeners.values()].reduce((n, set) => n + set.size, 0);
  }

  /** Rooms this client is in. */
  get entered(): string[] {
    return [...this.rooms];
  }

  /** Test hook: deliver any event to a room's subscribers. */
  emit(roomId: string, event: ChatroomEvent): void {
    this.deliver(roomId, event);
  }

  /** @internal called by the network */
  deliver(roomId: string, event: ChatroomEvent): void {
    for (const listener of [...(this.listeners.get(roomId) ?? [])]) listener(event);
  }

  /** @internal */
  forget(roomId: string): void {
    this.rooms.delete(roomId);
  }

  async enter(roomId: string, entry: ChatroomEntry): Promise<void> {
    if (this.mode === 'manual') await this.pending.add<void>('enter', [roomId, entry]);
    else this.network.enter(this, roomId, entry);
    this.rooms.add(roomId);
  }

  async leave(roomId: string): Promise<void> {
    if (this.mode === 'manual') await this.pending.add<void>('leave', [roomId]);
    else this.network.leave(this, roomId);
    this.rooms.delete(roomId);
  }

  async send(roomId: string, message: { text?: string; attach?: Record<string, unknown> }): Promise<ChatroomMessage> {
    if (this.mode === 'manual') return this.pending.add<ChatroomMessage>('send', [roomId, message]);
    return this.network.send(this, roomId, message);
  }

  async members(roomId: string, limit: number): Promise<ChatroomMember[]> {
    if (this.mode === 'manual') return this.pending.add<ChatroomMember[]>('members', [roomId, limit]);
    return this.network.members(this, roomId, limit);
  }

  async history(roomId: string, limit: number): Promise<ChatroomMessage[]> {
    if (this.mode === 'manual') return this.pending.add<ChatroomMessage[]>('history', [roomId, limit]);
    return this.network.history(this, roomId, limit);
  }

  async setGagged(roomId: string, account: string, gagged: boolean): Promise<void> {
    if (this.mode === 'manual') return this.pending.add<void>('setGagged', [roomId, account, gagged]);
    this.network.setGagged(this, roomId, account, gagged);
  }

  subscribe(roomId: string, listener: (event: ChatroomEvent) => void): () => void {
    let set = this.listeners.get(roomId);
    if (!set) this.listeners.set(roomId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }
}
