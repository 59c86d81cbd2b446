/** The IM contract against the local adapter over a real reference server (port 0, temporary database). */
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { RealtimePath } from '../api/contract/realtime';
import { SEED_PASSWORD } from '../../server/db/seed';
import { signInForIm, startTestServer } from '../../server/testing/harness';
import { eventually } from '../../machines/ports/contract.support';
import { registerImContract } from '../../machines/ports/im.contract';
import { ImCode, ImError } from '../../machines/ports/im.port';
import { createLocalImPort } from './im.local';
import type { WebSocketImpl } from './hub.socket';

const WebSocketImpl = WebSocket as unknown as WebSocketImpl;

async function startRig() {
  const server = await startTestServer({ build: false, seed: { hosts: 0, users: 3 } });
  const url = server.base.replace(/^http/, 'ws') + RealtimePath.im;
  // IM tokens are per session: each seeded user signs in once for its own.
  const logins = server.readDb().prepare('SELECT account FROM users ORDER BY id').pluck().all() as string[];
  const users = await Promise.all(logins.map(async (login) => {
    const { yxAccid, imToken } = await signInForIm(server.call, login, SEED_PASSWORD);
    return { account: yxAccid, token: imToken };
  }));
  const ports: ReturnType<typeof createLocalImPort>[] = [];
  const newPort = () => {
    const port = createLocalImPort({ url, WebSocketImpl });
    ports.push(port);
    return port;
  };
  const client = (i: number) => ({ port: newPort(), ...users[i]! });
  return {
    server,
    url,
    rig: {
      a: client(0),
      b: client(1),
      c: client(2),
      newPort,
      dropLink: (account: string) => { server.app.realtime.dropConnections(account); },
      block: (blocker: string, blocked: string) => server.app.realtime.blocks.blockAccid(blocker, blocked),
      async dispose() {
        await Promise.all(ports.map((p) => p.logout()));
        await server.close();
      },
    },
  };
}

registerImContract('local adapter over the reference hub', async () => (await startRig()).rig);

describe('local IM adapter', () => {
  it('confirms what it has seen, so a new client of the account (a reload) starts after it', async () => {
    const { server, rig } = await startRig();
    try {
      await rig.a.port.login(rig.a.account, rig.a.token);
      await rig.b.port.login(rig.b.account, rig.b.token);
      const seen: string[] = [];
      rig.b.port.subscribe((e) => { if (e.type === 'message') seen.push(e.message.text ?? ''); });
      await rig.a.port.sendText(rig.b.account, 'seen before the reload');
      await eventually(() => expect(seen).toEqual(['seen before the reload']));
      // No logout: the page just goes away after the confirmation went out.
      await eventually(() => expect(server.readDb().prepare('SELECT delivered_seq FROM im_accounts WHERE accid = ?')
        .pluck().get(rig.b.account)).toBe(1));
      const reloaded = rig.newPort();
      const after: string[] = [];
      reloaded.subscribe((e) => { if (e.type === 'message') after.push(e.message.text ?? ''); });
      await rig.a.port.sendText(rig.b.account, 'sent during the reload');
      await reloaded.login(rig.b.account, rig.b.token);
      await eventually(() => expect(after).toEqual(['sent during the reload']));
    } finally {
      await rig.dispose();
    }
  });

  it('fails a login to a hub that cannot be reached as unreachable (not a refused attempt)', async () => {
    const port = createLocalImPort({ url: 'ws://127.0.0.1:9/realtime/im', WebSocketImpl });
    const error = await port.login('someone', 'token').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImError);
    expect((error as ImError).code).toBe(ImCode.unreachable);
  });
});
