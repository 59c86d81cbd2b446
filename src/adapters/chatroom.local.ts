/**
 * The chat-room port over the reference server's hub (`/realtime/chatroom`; the address
 * /api/agora/live/getChatRoomAddress gives): the local stand-in for NetEase chat rooms.
 * One socket carries every room this client is in; it opens with the first `enter` and
 * closes after the last `leave`.
 *
 * The port has no event for a lost link, so this adapter, unlike the IM one, restores the
 * link itself, as the NetEase chat-room SDK does: after a drop it opens a new socket and
 * enters every room again (after each of `reenterDelaysMs`). A room the hub no longer has
 * gets `closed: roomClosed`; when every attempt failed, each room gets `closed: kicked`
 * (the port's only other way to say "you are out of this room"). Calls made while the link
 * is down reject with HubError(-10002).
 */
import type {
  ChatroomEntry, ChatroomEvent, ChatroomMember, ChatroomMessage, ChatroomPort,
} from '../../machines/ports/chatroom.port';
import { HubCode, type ChatroomPush } from '../api/contract/realtime';
import { HubError, HubSocket, type WebSocketImpl } from './hub.socket';

export interface LocalChatroomOptions {
  /** ws:// URL of the hub's chat-room path (`hubUrl(RealtimePath.chatroom)` in the browser). */
  url: string;
  /** Default `globalThis.WebSocket`; Node tests pass the `ws` package's WebSocket. */
  WebSocketImpl?: WebSocketImpl;
  /** Default 10 s. */
  requestTimeoutMs?: number;
  /** Waits before each attempt to enter the rooms again after a drop; default 200 ms, 1 s, 3 s. */
  reenterDelaysMs?: readonly number[];
}

export function createLocalChatroomPort(options: LocalChatroomOptions): ChatroomPort {
  const listeners = new Map<string, Set<(event: ChatroomEvent) => void>>();
  const rooms = new Map<string, ChatroomEntry>();
  let socket: HubSocket | null = null;
  let connecting: Promise<HubSocket> | null = null;
  let restoring = false;

  const deliver = (roomId: string, event: ChatroomEvent): void => {
    for (const listener of [...(listeners.get(roomId) ?? [])]) listener(event);
  };

  function onPush(sock: HubSocket, push: ChatroomPush): void {
    if (sock !== socket) return;
    switch (push.type) {
      case 'message':
        return deliver(push.roomId, { type: 'message', message: push.message });
      case 'memberEnter':
        return deliver(push.roomId, { type: 'memberEnter', member: push.member });
      case 'memberExit':
        return deliver(push.roomId, { type: 'memberExit', account: push.account });
      case 'gag':
        return deliver(push.roomId, { type: 'gag', account: push.account, gagged: push.gagged });
      case 'closed':
        rooms.delete(push.roomId);
        return deliver(push.roomId, { type: 'closed', reason: push.reason });
    }
  }

  async function connect(): Promise<HubSocket> {
    if (socket?.isOpen) return socket;
    connecting ??= (async () => {
      const sock: HubSocket = new HubSocket({
        url: options.url,
        WebSocketImpl: options.WebSocketImpl,
        onPush: (push) => onPush(sock, push as ChatroomPush),
        onDrop: () => {
          if (sock !== socket) return;
          socket = null;
          void restore();
        },
      });
      try {
        await sock.ready;
      } catch (error) {
        sock.close();
        throw error;
      }
      socket = sock;
      return sock;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  const enterArgs = (roomId: string, entry: ChatroomEntry) => ({ roomId, ...entry });

  /** After a drop: a new socket, and every room entered again. */
  async function restore(): Promise<void> {
    if (restoring) return;
    restoring = true;
    try {
      for (const delay of options.reenterDelaysMs ?? [200, 1000, 3000]) {
        if (rooms.size === 0) return;
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (rooms.size === 0) return;
        let sock: HubSocket;
        try {
          sock = await connect();
        } catch {
          continue;
        }
        for (const [roomId, entry] of [...rooms]) {
          try {
            await sock.request('enter', enterArgs(roomId, entry), options.requestTimeoutMs);
          } catch (error) {
            if (error instanceof HubError && error.code !== HubCode.linkLost && rooms.get(roomId) === entry) {
              rooms.delete(roomId);
              deliver(roomId, { type: 'closed', reason: error.code === HubCode.notFound ? 'roomClosed' : 'kicked' });
            }
          }
        }
        if (sock === socket && sock.isOpen) return;
      }
      for (const roomId of [...rooms.keys()]) {
        rooms.delete(roomId);
        deliver(roomId, { type: 'closed', reason: 'kicked' });
      }
    } finally {
      restoring = false;
    }
  }

  function live(roomId: string): HubSocket {
    if (!rooms.has(roomId)) throw new HubError(HubCode.forbidden, 'Not in this room');
    if (!socket?.isOpen) throw new HubError(HubCode.linkLost, 'The chat-room link is down');
    return socket;
  }

  return {
    async enter(roomId, entry) {
      const sock = await connect();
      await sock.request('enter', enterArgs(roomId, entry), options.requestTimeoutMs);
      rooms.set(roomId, entry);
    },

    async leave(roomId) {
      const had = rooms.delete(roomId);
      const sock = socket;
      if (had && sock?.isOpen) await sock.request('leave', { roomId }, options.requestTimeoutMs).catch(() => undefined);
      if (rooms.size === 0 && sock) {
        socket = null;
        sock.close();
      }
    },

    async send(roomId, message) {
      return live(roomId).request<ChatroomMessage>('send', { roomId, ...message }, options.requestTimeoutMs);
    },

    async members(roomId, limit) {
      return live(roomId).request<ChatroomMember[]>('members', { roomId, limit }, options.requestTimeoutMs);
    },

    async history(roomId, limit) {
      return live(roomId).request<ChatroomMessage[]>('history', { roomId, limit }, options.requestTimeoutMs);
    },

    async setGagged(roomId, account, gagged) {
      await live(roomId).request('setGagged', { roomId, account, gagged }, options.requestTimeoutMs);
    },

    subscribe(roomId, listener) {
      let set = listeners.get(roomId);
      if (!set) listeners.set(roomId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  };
}
