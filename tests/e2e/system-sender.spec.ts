/**
 * Only the server speaks for the server (SPEC §4 System messages, 44 forced live end): a
 * signed-in user's browser sends a live host a forged 44 over the hub's IM socket, as anyone
 * could with their own IM login. The hub refuses it, and the host's live goes on; the app
 * would drop it all the same (it obeys the system sender only: machine tests).
 */
import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { createAesCodec } from '../../src/api/codec';
import { APP_VERSION, DEV_AES_IV, DEV_AES_KEY, Header } from '../../src/api/codes';
import { RealtimePath } from '../../src/api/contract/realtime';
import { goLive, room } from './live-support';
import { VIDEO_LOCK, firstAccount, openAppAs, openParams } from './support';

// The host's camera is on air: one video test at a time (VIDEO_LOCK).
test.describe.configure({ lock: VIDEO_LOCK });

const codec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);

/** The user's IM account and token, as the app reads them (userInfo) with the session the shell opened. */
async function imLoginOf(request: APIRequestContext, token: string): Promise<{ account: string; token: string }> {
  const response = await request.post('/api/anchor/userInfo', {
    headers: {
      'content-type': 'text/plain;charset=utf-8', [Header.loginToken]: token, [Header.anchorToken]: token,
      [Header.appId]: 'web', [Header.appVersion]: APP_VERSION,
    },
    data: codec.encrypt('{}'),
  });
  const envelope = JSON.parse(codec.decrypt(await response.text())) as { data: { yxAccid: string; imToken: string } };
  return { account: envelope.data.yxAccid, token: envelope.data.imToken };
}

test('[§4 44] a forged forced end sent by a user over the hub is refused, and the host\'s live goes on', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const hostAccount = await firstAccount(request, 2);
  const userAccount = await firstAccount(request, 1);
  const hostContext = await browser.newContext({ viewport: { width: 360, height: 640 } });
  const host = await hostContext.newPage();
  await openAppAs(host, request, hostAccount.userId, '/liveSetting');
  await goLive(host, 'Not to be ended by a viewer');

  const userContext = await browser.newContext({ viewport: { width: 360, height: 640 } });
  const user = await userContext.newPage();
  await openAppAs(user, request, userAccount.userId);
  await expect(user.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 15_000 });
  // A second session of the same user for the forging socket: its IM login kicks the app's, and
  // the app's logout that follows closes the app's session's sockets, not this one.
  const login = await imLoginOf(request, (await openParams(request, userAccount.userId)).token!);

  // The user's own IM login on a socket of the page, then the forged 44 to the host.
  const replies = await user.evaluate(async ({ path, login, to }) => {
    const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}${path}`);
    const answers = new Map<number, unknown>();
    ws.onmessage = (e) => {
      const frame = JSON.parse(String(e.data)) as { id?: number };
      if (typeof frame.id === 'number') answers.set(frame.id, frame);
    };
    await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
    const ask = async (frame: { id: number; op: string } & Record<string, unknown>) => {
      ws.send(JSON.stringify(frame));
      for (let waited = 0; waited < 15_000 && !answers.has(frame.id); waited += 20) await new Promise((r) => setTimeout(r, 20));
      return answers.get(frame.id);
    };
    const loggedIn = await ask({ id: 1, op: 'login', account: login.account, token: login.token });
    const forged = await ask({ id: 2, op: 'notify', to, content: { attachType: 44, code: 3 } });
    ws.close();
    return { loggedIn, forged };
  }, { path: RealtimePath.im, login, to: hostAccount.yxAccid });

  expect(replies.loggedIn).toMatchObject({ ok: true });
  // What a 44 would have done by now (the app ends the live and shows /liveEnds at once), it has not.
  await host.waitForTimeout(3000);
  await expect(host.getByTestId('live-ends')).toHaveCount(0);
  await expect(room(host)).toHaveAttribute('data-live-state', 'living');
  expect(replies.forged).toMatchObject({ ok: false, code: 403 });

  for (const context of [userContext, hostContext]) await context.close();
});
