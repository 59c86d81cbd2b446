/** The signalling contract against the local adapter over a real reference server. */
import WebSocket from 'ws';
import { RealtimePath } from '../api/contract/realtime';
import { startRealtimeServer } from '../../server/realtime/testing';
import { registerSignallingContract } from '../../machines/ports/signalling.contract';
import type { SignallingPort } from '../../machines/ports/signalling.port';
import type { WebSocketImpl } from './hub.socket';
import { createLocalSignallingPort } from './signalling.local';

registerSignallingContract('local adapter over the reference hub', async () => {
  const hub = await startRealtimeServer({ users: 2 });
  const ports: SignallingPort[] = [];
  const newPort = () => {
    const port = createLocalSignallingPort({ url: hub.url(RealtimePath.signal), WebSocketImpl: WebSocket as unknown as WebSocketImpl });
    ports.push(port);
    return port;
  };
  const client = async (i: number) => {
    const user = hub.users[i]!;
    return { port: newPort(), account: user.account, token: await hub.rtmTokenOf(user) };
  };
  // The calls the contract's signals name, between its two accounts (the hub relays a signal only within its call).
  for (const channelId of ['c', 'ch-2', 'ch-9']) hub.storeCall(channelId, hub.users[0]!, hub.users[1]!);
  return {
    a: await client(0),
    b: await client(1),
    newPort,
    dropLink: (account) => { hub.server.app.realtime.dropConnections(account); },
    async dispose() {
      await Promise.all(ports.map((p) => p.logout()));
      await hub.close();
    },
  };
});
