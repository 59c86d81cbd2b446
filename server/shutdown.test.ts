/**
 * A request that arrives while the server stops: an API request gets the API's own encrypted
 * envelope (`serverRestarting`, which the app shows as its sentence, SPEC §8), anything else a
 * plain 503 with the same sentence. Over real HTTP: a hub socket that never answers the
 * closing handshake holds the stop open (the hub waits for it) while the requests arrive.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ResultCode, TEXT_SERVER_RESTARTING } from '../src/api/codes';
import { endpoints } from '../src/api/contract';
import { interpretEnvelope } from '../src/api/outcome';
import { RealtimePath } from '../src/api/contract/realtime';
import { apiHeaders, codec, startTestServer } from './testing/harness';

/** A WebSocket that upgrades and then never reads or answers anything, as a frozen client's. */
function frozenSocket(base: string, path: string): Promise<Socket> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
    });
    socket.once('data', (head) => (head.toString().startsWith('HTTP/1.1 101') ? resolve(socket) : reject(new Error(head.toString()))));
    socket.once('error', reject);
  });
}

describe('[shutdown] requests while the server stops', () => {
  it('answers an API request with the API envelope, and anything else with a plain 503, until it is closed', async () => {
    const server = await startTestServer({ seed: { hosts: 0, users: 1 } });
    const frozen = await frozenSocket(server.base, RealtimePath.presence);
    frozen.on('error', () => undefined);
    const stopping = server.close();
    try {
      const api = await fetch(server.base + endpoints.userInfo.path, {
        method: 'POST', headers: apiHeaders(), body: codec.encrypt('{}'),
      });
      expect(api.status).toBe(200);
      expect(api.headers.get('connection')).toBe('close');
      const envelope = JSON.parse(codec.decrypt(await api.text())) as { code: string; message: string };
      expect(envelope).toEqual({ code: ResultCode.serverRestarting, message: TEXT_SERVER_RESTARTING });

      const page = await fetch(server.base + '/');
      expect([page.status, await page.text()]).toEqual([503, `${TEXT_SERVER_RESTARTING}\n`]);
    } finally {
      await stopping;
      frozen.destroy();
    }
  });

  it('[§8 other codes] the app shows that sentence as a warning and rejects the call', () => {
    const { outcome, notices } = interpretEnvelope(
      { code: ResultCode.serverRestarting, message: TEXT_SERVER_RESTARTING }, endpoints.userInfo,
    );
    expect(notices).toEqual([{ type: 'toast', text: TEXT_SERVER_RESTARTING, level: 'warning' }]);
    expect('reject' in outcome && outcome.reject.message).toBe(TEXT_SERVER_RESTARTING);
  });
});
