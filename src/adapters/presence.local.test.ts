/** The presence contract against the local adapter over a real reference server. */
import WebSocket from 'ws';
import { RealtimePath } from '../api/contract/realtime';
import { startRealtimeServer } from '../../server/realtime/testing';
import { registerPresenceContract } from '../../machines/ports/presence.contract';
import type { PresencePort } from '../../machines/ports/presence.port';
import type { WebSocketImpl } from './hub.socket';
import { createLocalPresencePort } from './presence.local';

const graceMs = 150;

registerPresenceContract('local adapter over the reference hub', async () => {
  const hub = await startRealtimeServer({ users: 1, realtime: { presenceGraceMs: graceMs } });
  const user = hub.users[0]!;
  const session = await hub.sessionOf(user);
  const ports: PresencePort[] = [];
  const newPort = (token = session) => {
    const port = createLocalPresencePort({
      url: hub.url(RealtimePath.presence),
      token: () => token,
      WebSocketImpl: WebSocket as unknown as WebSocketImpl,
    });
    ports.push(port);
    return port;
  };
  return {
    port: newPort(),
    newPort: () => newPort(),
    badPort: () => newPort('not-a-session-token'),
    status: () => hub.server.app.realtime.presence.statusOf(user.userId)?.status,
    dropLink: () => { hub.server.app.realtime.dropConnections(user.account); },
    graceMs,
    async dispose() {
      ports.forEach((p) => p.close());
      await hub.close();
    },
  };
});
