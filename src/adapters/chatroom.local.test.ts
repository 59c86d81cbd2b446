/** The chat-room contract against the local adapter over a real reference server. */
import WebSocket from 'ws';
import { RealtimePath } from '../api/contract/realtime';
import { startRealtimeServer } from '../../server/realtime/testing';
import { registerChatroomContract } from '../../machines/ports/chatroom.contract';
import type { ChatroomPort } from '../../machines/ports/chatroom.port';
import { createLocalChatroomPort } from './chatroom.local';
import type { WebSocketImpl } from './hub.socket';

registerChatroomContract('local adapter over the reference hub', async () => {
  const hub = await startRealtimeServer({ users: 3 });
  const rooms = hub.server.app.realtime.chatrooms;
  const ports: { port: ChatroomPort; rooms: Set<string> }[] = [];
  const newPort = (): ChatroomPort => {
    const port = createLocalChatroomPort({
      url: hub.url(RealtimePath.chatroom),
      WebSocketImpl: WebSocket as unknown as WebSocketImpl,
      reenterDelaysMs: [20, 100, 300],
    });
    ports.push({ port, rooms: new Set() });
    return port;
  };
  // Each client's nick and avatar as the server records them (members show as these, whatever they enter with).
  const recordOf = hub.server.readDb().prepare<[string], { nickname: string; icon: string }>('SELECT nickname, icon FROM users WHERE yx_accid = ?');
  const client = (i: number) => {
    const user = hub.users[i]!;
    const { nickname, icon } = recordOf.get(user.account)!;
    return { port: newPort(), entry: { account: user.account, token: user.token, nick: nickname, avatar: icon } };
  };
  return {
    owner: client(0),
    viewer: client(1),
    other: client(2),
    newPort,
    openRoom: (roomId, owner) => rooms.open(roomId, owner),
    closeRoom: (roomId) => rooms.close(roomId),
    post: (roomId, message) => { rooms.post(roomId, message); },
    dropLink: (account) => { hub.server.app.realtime.dropConnections(account); },
    async dispose() {
      await Promise.all(ports.map(({ port }) => port.leave('room-1')));
      await hub.close();
    },
  };
});
