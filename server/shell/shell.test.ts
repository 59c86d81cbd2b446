import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RealtimePath } from '../../src/api/contract/realtime';
import { endpoints } from '../../src/api/contract';
import { SEED_PASSWORD } from '../db/seed';
import { writeDb } from '../testing/calls';
import { signInForIm, startTestServer, type TestServer } from '../testing/harness';
import { TEXT_RECORD_ENDED } from '../../machines/codes/withdraw.codes';
import { contentSecurityPolicy } from '../web/security';
import { SHELL_APP_ID } from './routes';
import type { ShellAccount } from '../users/users';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const postJson = (path: string, body: unknown) =>
  fetch(server.base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('dev shell', () => {
  it('serves its page under the CSP, with no inline script or handler', async () => {
    const res = await fetch(server.base + '/shell');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(contentSecurityPolicy({}, new URL(server.base).host, false));
    const html = await res.text();
    for (const script of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []) {
      expect(script).toMatch(/^<script\b[^>]*\bsrc="\/shell\/[^"]+"[^>]*><\/script>$/);
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    for (const asset of ['/shell/shell.js', '/shell/shell.css']) expect((await fetch(server.base + asset)).status).toBe(200);
  });

  it('gives every control its test id', () => {
    const js = readFileSync(new URL('./shell.js', import.meta.url), 'utf8');
    for (const id of ['frame', 'hide', 'show', 'reload', 'drop', 'close']) expect(js).toContain(`'${id}'`);
    expect(js).toContain('`open-${a.userId}`');
    expect(js).toContain("postMessage({ type: 'shell.visibility', hidden }, location.origin)");
    // The store's payment sheet answers the app's shell.storePay with shell.storeResult (src/adapters/store.bridge.ts).
    expect(js).toContain("data.type !== 'shell.storePay'");
    expect(js).toContain("postMessage({ type: 'shell.storeResult', requestId: data.requestId, outcome }, location.origin)");
    // The operator's withdrawals panel: a labelled button for each move, and the reason's input.
    for (const id of ['withdrawal', 'withdrawal-status', 'withdrawal-processing', 'withdrawal-paid', 'withdrawal-reason', 'withdrawal-refuse']) {
      expect(js).toContain(`'data-testid': \`${id}-\${w.id}\``);
    }
    for (const label of ["'Processing'", "'Mark paid'", "'Refuse'"]) expect(js).toContain(label);
  });

  it('lists every host\'s withdrawals for the operator and moves one: processing, then refused with a reason, once', async () => {
    const db = writeDb(server);
    try {
      // A withdrawal row as applyWithdrawV2 leaves it (set-up only: the apply's own ledger entry is not written here).
      const id = Number(db.prepare(
        `INSERT INTO withdrawals (host_id, account_kind, account_label, amount, fee, usd, status, created_at, updated_at)
         VALUES (100002, 'bank', 'First Bank •••• 3000', 1000, 50, '9.50', 'applied', 1, 1)`,
      ).run().lastInsertRowid);
      const income = () => db.prepare('SELECT coalesce((SELECT income FROM wallets WHERE user_id = 100002), 0)').pluck().get() as number;
      const before = income();
      const listed = (await (await fetch(server.base + '/shell/api/withdrawals')).json()) as { list: Record<string, unknown>[] };
      expect(listed.list[0]).toMatchObject({ id, hostId: 100002, hostNickname: 'Amara', amount: 1000, usd: '9.50', status: 'applied' });
      expect((await postJson('/shell/api/withdrawals/move', { id, to: 'processing' })).status).toBe(200);
      expect((await postJson('/shell/api/withdrawals/move', { id, to: 'refused' })).status).toBe(400);
      const refused = await postJson('/shell/api/withdrawals/move', { id, to: 'refused', reason: 'Name mismatch' });
      expect(await refused.json()).toMatchObject({ record: { id, status: 'refused', reason: 'Name mismatch' } });
      expect(income()).toBe(before + 1000);
      expect(await (await postJson('/shell/api/withdrawals/move', { id, to: 'refused', reason: 'Again' })).json()).toEqual({ error: TEXT_RECORD_ENDED });
      expect(income()).toBe(before + 1000);
      expect((await postJson('/shell/api/withdrawals/move', { id: 987654, to: 'paid' })).status).toBe(404);
      expect((await postJson('/shell/api/withdrawals/move', { id, to: 'sent' })).status).toBe(400);
    } finally {
      db.close();
    }
  });

  it('lists the seeded accounts, hosts first', async () => {
    const accounts = (await (await fetch(server.base + '/shell/api/accounts')).json()) as ShellAccount[];
    expect(accounts.filter((a) => a.userType === 2)).toHaveLength(6);
    expect(accounts.filter((a) => a.userType === 1)).toHaveLength(4);
    expect(accounts[0]).toMatchObject({ userId: 100001, account: 'host1@example.com', nickname: 'Sofia', userType: 2, userLevel: 1 });
    expect(accounts[0]!.yxAccid).toMatch(/^yx/);
  });

  it('opens a fresh session for an account and hands back the open parameters', async () => {
    const res = await postJson('/shell/api/open', { userId: 200001, frame: 3 });
    expect(res.status).toBe(200);
    const params = (await res.json()) as Record<string, string>;
    expect(params).toEqual({
      loginUuid: expect.any(String),
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
      appId: SHELL_APP_ID,
      deviceType: 'android',
      deviceId: 'dev-shell-frame-3',
      deviceNo: 'DS-0003',
      osType: 'android',
      osVersion: '14',
      appVersion: '1.0.34',
    });
    const mine = await server.call(endpoints.userInfo, {}, { token: params.token });
    expect(mine.data).toMatchObject({ userId: 200001, nickname: 'Alex' });
    const row = server.readDb().prepare('SELECT app_id, device_id FROM sessions WHERE token = ?').get(params.token);
    expect(row).toEqual({ app_id: 'dev-shell', device_id: 'dev-shell-frame-3' });
  });

  it('opens the same visitor for the same frame', async () => {
    const a = (await (await postJson('/shell/api/visitor', { frame: 7 })).json()) as { token: string };
    const b = (await (await postJson('/shell/api/visitor', { frame: 7 })).json()) as { token: string };
    const [ma, mb] = await Promise.all([a, b].map((p) => server.call(endpoints.userInfo, {}, { token: p.token })));
    expect(ma!.data!.userId).toBe(mb!.data!.userId);
    expect(ma!.data!.nickname).toMatch(/^Visitor \d{4}$/);
  });

  it('refuses an unknown user and a malformed request', async () => {
    expect((await postJson('/shell/api/open', { userId: 42 })).status).toBe(404);
    expect((await postJson('/shell/api/open', { userId: 'host1' })).status).toBe(400);
    const broken = await fetch(server.base + '/shell/api/open', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(broken.status).toBe(400);
  });

  it("drops an account's realtime links as a network reset would, and only that account's", async () => {
    const loggedIn = async (id: number) => {
      const { yxAccid, imToken } = await signInForIm(server.call, `user${id - 200000}@example.com`, SEED_PASSWORD);
      const ws = new WebSocket(server.base.replace(/^http/, 'ws') + RealtimePath.im);
      await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
      ws.send(JSON.stringify({ id: 1, op: 'login', account: yxAccid, token: imToken }));
      await new Promise((resolve) => ws.once('message', resolve));
      return ws;
    };
    const [target, bystander] = await Promise.all([loggedIn(200001), loggedIn(200002)]);
    const closed = new Promise<number>((resolve) => target.once('close', resolve));
    const res = await postJson('/shell/api/drop', { userId: 200001 });
    expect(await res.json()).toEqual({ dropped: 1 });
    expect(await closed).toBe(1006);
    expect(bystander.readyState).toBe(WebSocket.OPEN);
    bystander.close();
    expect((await postJson('/shell/api/drop', { userId: 42 })).status).toBe(404);
    expect((await postJson('/shell/api/drop', {})).status).toBe(400);
  });

  it('is absent when devShell is false', async () => {
    const prod = await startTestServer({ devShell: false });
    try {
      expect((await fetch(prod.base + '/shell')).status).toBe(404);
      expect((await fetch(prod.base + '/shell/api/accounts')).status).toBe(404);
      const open = await fetch(prod.base + '/shell/api/open', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"userId":100001}' });
      expect(open.status).toBe(404);
      expect((await fetch(prod.base + '/shell/api/withdrawals')).status).toBe(404);
      const move = await fetch(prod.base + '/shell/api/withdrawals/move', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":1,"to":"paid"}' });
      expect(move.status).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
