/**
 * Live-room chat on `/realtime/chatroom` (SPEC §3 Live chat record, §4 Live state, §7
 * chat-room calls). Rooms live in memory: a server restart empties them, as a live ends
 * when its host's connection does. A room is opened for its owner (the host) by the live
 * endpoints through `open`, and ended with `close` (members get `closed: roomClosed`).
 *
 * A socket may be in several rooms, each under the account it entered with (IM account and
 * token). One membership per account and room: entering again from another socket closes
 * the older membership (`closed: kicked`). A room holds its owner and up to
 * CHATROOM_AUDIENCE_LIMIT others; one more is refused (403), the owner never. A member that
 * stops reading is cut once 256 KiB wait for it (wire.ts MAX_UNREAD_BYTES), so a busy room
 * holds little for it. Only the owner may gag; a gag outlives leaving and entering again, and
 * is told to `onGag` listeners (the live engine keeps it in the database, and opens a room
 * again with its gags after a restart). Messages go to everyone in the room but their sender;
 * the last HISTORY_SIZE are kept for `history` (newest first).
 *
 * The live endpoints also gag people in every room at once for the service
 * (`setServiceGagged`: SPEC §3 whoBlock 1; such a member cannot send either), read a host's gag
 * (`isGagged`), and `post` messages into a room on a member's behalf (a live gift, once paid):
 * those go to every member, the sender's own sockets too, and into the history.
 *
 * Members speak for themselves only: a member shows (member list, enter notice, its messages'
 * fromNick) with the nickname and avatar the server records for its account, never the `enter`
 * arguments; its messages carry no attach but its profile (MEMBER_ATTACH_KEYS: no gift, no
 * notice; 403 otherwise); and only what the server posts is marked `fromServer`.
 */
import { randomUUID } from 'node:crypto';
import { MEMBER_ATTACH_KEYS } from '../../machines/ports/chatroom.port';
import type { ChatroomMember, ChatroomMessage } from '../../machines/ports/chatroom.port';
import { SYSTEM_SENDER_ACCID } from '../../machines/system-messages/system-sender';
import { TEXT_VISITOR_REFUSED } from '../../src/api/codes';
import { CHATROOM_AUDIENCE_LIMIT, ChatroomOps, HubCode, type ChatroomPush } from '../../src/api/contract/realtime';
import type { ImAccounts } from './accounts';
import { HubError, op, type Conn, type Service } from './wire';

export const HISTORY_SIZE = 100;

interface Member {
  conn: Conn;
  account: string;
  nick: string;
  avatar?: string;
  ext?: Record<string, unknown>;
}

interface Room {
  id: string;
  owner: string;
  members: Map<string, Member>;
  gagged: Set<string>;
  history: ChatroomMessage[];
}

export interface ChatroomService extends Service {
  /** Opens (or keeps) the room with its owner's IM account; `gagged`: the owner's gags a room opened again keeps. */
  open(roomId: string, owner: string, gagged?: Iterable<string>): void;
  /** Calls `listener` after each gag or ungag by a room's owner; returns the unsubscribe. */
  onGag(listener: (roomId: string, account: string, gagged: boolean) => void): () => void;
  /** Ends the room: every member gets `closed: roomClosed`. */
  close(roomId: string): void;
  isOpen(roomId: string): boolean;
  /** Accounts in the room, in order of entry. */
  membersOf(roomId: string): string[];
  /** Whether the room's owner gagged the account (false for a room that is not open). */
  isGagged(roomId: string, account: string): boolean;
  /** Gags (or ungags) the account in every room, for the service. */
  setServiceGagged(account: string, gagged: boolean): void;
  isServiceGagged(account: string): boolean;
  /** Posts a message into an open room as `from` (to every member, and into the history); undefined when the room is not open. */
  post(roomId: string, message: { from: string; fromNick: string; text?: string; attach?: Record<string, unknown> }): ChatroomMessage | undefined;
}

export interface ChatroomServiceOptions {
  accounts: ImAccounts;
  /** Members a room holds besides its owner; default CHATROOM_AUDIENCE_LIMIT. */
  audienceLimit?: number;
}

export function createChatroomService({ accounts, audienceLimit = CHATROOM_AUDIENCE_LIMIT }: ChatroomServiceOptions): ChatroomService {
  const rooms = new Map<string, Room>();
  /** Accounts the service gagged in every room. */
  const serviceGagged = new Set<string>();
  /** The rooms each socket is in. */
  const joined = new Map<Conn, Set<string>>();
  const gagListeners = new Set<(roomId: string, account: string, gagged: boolean) => void>();

  const memberView = (room: Room, m: Member): ChatroomMember => ({
    account: m.account,
    nick: m.nick,
    ...(m.avatar !== undefined ? { avatar: m.avatar } : {}),
    ...(m.ext !== undefined ? { ext: m.ext } : {}),
    gagged: room.gagged.has(m.account),
  });

  const broadcast = (room: Room, payload: ChatroomPush, except?: Conn) => {
    for (const m of room.members.values()) if (m.conn !== except) m.conn.push(payload);
  };

  /** The caller's membership of a room. */
  function memberOf(conn: Conn, roomId: string): { room: Room; member: Member } {
    const room = rooms.get(roomId);
    const member = [...(room?.members.values() ?? [])].find((m) => m.conn === conn);
    if (!room || !member) throw new HubError(HubCode.forbidden, 'Not in this room');
    return { room, member };
  }

  /** A new message of the room, kept in its history; `fromServer` when the server itself posts it. */
  function record(room: Room, from: string, fromNick: string, text?: string, attach?: Record<string, unknown>, fromServer = false): ChatroomMessage {
    const message: ChatroomMessage = {
      idServer: randomUUID(),
      roomId: room.id,
      from,
      fromNick,
      ...(text !== undefined ? { text } : {}),
      ...(attach !== undefined ? { attach } : {}),
      ...(fromServer ? { fromServer } : {}),
      time: Date.now(),
    };
    room.history.push(message);
    if (room.history.length > HISTORY_SIZE) room.history.shift();
    return message;
  }

  function removeMember(room: Room, member: Member, notify: boolean): void {
    room.members.delete(member.account);
    joined.get(member.conn)?.delete(room.id);
    if (notify) broadcast(room, { type: 'memberExit', roomId: room.id, account: member.account });
  }

  return {
    open(roomId, owner, gagged = []) {
      const room = rooms.get(roomId);
      if (room) room.owner = owner;
      else rooms.set(roomId, { id: roomId, owner, members: new Map(), gagged: new Set(gagged), history: [] });
    },
    onGag(listener) {
      gagListeners.add(listener);
      return () => { gagListeners.delete(listener); };
    },
    close(roomId) {
      const room = rooms.get(roomId);
      if (!room) return;
      rooms.delete(roomId);
      broadcast(room, { type: 'closed', roomId, reason: 'roomClosed' });
      for (const m of room.members.values()) joined.get(m.conn)?.delete(roomId);
    },
    isOpen: (roomId) => rooms.has(roomId),
    membersOf: (roomId) => [...(rooms.get(roomId)?.members.keys() ?? [])],
    isGagged: (roomId, account) => rooms.get(roomId)?.gagged.has(account) ?? false,
    setServiceGagged(account, gagged) {
      if (gagged) serviceGagged.add(account);
      else serviceGagged.delete(account);
    },
    isServiceGagged: (account) => serviceGagged.has(account),
    post(roomId, { from, fromNick, text, attach }) {
      const room = rooms.get(roomId);
      if (!room) return undefined;
      const message = record(room, from, fromNick, text, attach, true);
      broadcast(room, { type: 'message', roomId, message });
      return message;
    },

    closed(conn) {
      for (const roomId of joined.get(conn) ?? []) {
        const room = rooms.get(roomId);
        const member = [...(room?.members.values() ?? [])].find((m) => m.conn === conn);
        if (room && member) removeMember(room, member, true);
      }
      joined.delete(conn);
    },

    ops: {
      enter: op(ChatroomOps.enter, (conn, args) => {
        // The system sender has no token; refused by name all the same.
        const verified = args.account === SYSTEM_SENDER_ACCID ? undefined : accounts.verify(args.account, args.token);
        if (!verified) throw new HubError(HubCode.tokenInvalid, 'Account or token invalid');
        // SPEC §6: a visitor may log in and register only, not talk in a live room.
        if (verified.visitor) throw new HubError(HubCode.forbidden, TEXT_VISITOR_REFUSED);
        const room = rooms.get(args.roomId);
        if (!room) throw new HubError(HubCode.notFound, 'No such room (the live has not started or has ended)');
        const earlier = room.members.get(args.account);
        const audience = room.members.size - (room.members.has(room.owner) ? 1 : 0);
        if (!earlier && args.account !== room.owner && audience >= audienceLimit) {
          throw new HubError(HubCode.forbidden, `This live room's chat is full: at most ${audienceLimit} members besides its host`);
        }
        if (earlier && earlier.conn !== conn) {
          earlier.conn.push({ type: 'closed', roomId: room.id, reason: 'kicked' } satisfies ChatroomPush);
          removeMember(room, earlier, false);
        }
        // Shown as the server records the account, whatever nick and avatar the client entered with.
        const member: Member = {
          conn,
          account: args.account,
          nick: verified.nick || args.account,
          ...(verified.icon ? { avatar: verified.icon } : {}),
          ...(args.ext !== undefined ? { ext: args.ext } : {}),
        };
        const again = earlier !== undefined;
        // The socket's account for `dropConnections` (in practice one account per socket).
        conn.account = args.account;
        // Logout of that session closes this socket (hub.closeSession).
        conn.session = verified.session;
        room.members.set(args.account, member);
        let mine = joined.get(conn);
        if (!mine) joined.set(conn, (mine = new Set()));
        mine.add(room.id);
        if (!again) broadcast(room, { type: 'memberEnter', roomId: room.id, member: memberView(room, member) }, conn);
        return { roomId: room.id, owner: room.owner };
      }),

      leave: op(ChatroomOps.leave, (conn, { roomId }) => {
        const room = rooms.get(roomId);
        const member = [...(room?.members.values() ?? [])].find((m) => m.conn === conn);
        if (room && member) removeMember(room, member, true);
        return null;
      }),

      send: op(ChatroomOps.send, (conn, { roomId, text, attach }) => {
        const { room, member } = memberOf(conn, roomId);
        if (room.gagged.has(member.account) || serviceGagged.has(member.account)) {
          throw new HubError(HubCode.gagged, 'You are gagged in this room');
        }
        if (text === undefined && attach === undefined) throw new HubError(HubCode.badRequest, 'A message needs text or attach');
        const foreign = Object.keys(attach ?? {}).find((key) => !MEMBER_ATTACH_KEYS.includes(key));
        if (foreign !== undefined) {
          throw new HubError(HubCode.forbidden, `A member's message carries only ${MEMBER_ATTACH_KEYS.join(', ')} `
            + `(not ${JSON.stringify(foreign.slice(0, 64))}): gifts and notices come from the server`);
        }
        const message = record(room, member.account, member.nick, text, attach);
        broadcast(room, { type: 'message', roomId, message }, conn);
        return message;
      }),

      members: op(ChatroomOps.members, (conn, { roomId, limit }) => {
        const { room } = memberOf(conn, roomId);
        return [...room.members.values()].slice(0, limit).map((m) => memberView(room, m));
      }),

      history: op(ChatroomOps.history, (conn, { roomId, limit }) => {
        const { room } = memberOf(conn, roomId);
        return room.history.slice(-limit).reverse();
      }),

      setGagged: op(ChatroomOps.setGagged, (conn, { roomId, account, gagged }) => {
        const { room, member } = memberOf(conn, roomId);
        if (member.account !== room.owner) throw new HubError(HubCode.forbidden, "Only the room's owner may gag");
        if (account === room.owner) throw new HubError(HubCode.badRequest, 'The owner cannot be gagged');
        if (gagged) room.gagged.add(account);
        else room.gagged.delete(account);
        for (const listener of gagListeners) listener(roomId, account, gagged);
        broadcast(room, { type: 'gag', roomId, account, gagged });
        return null;
      }),

      ping: op(ChatroomOps.ping, () => ({ time: Date.now() })),
    },
  };
}
