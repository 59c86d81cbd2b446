/**
 * The /news sub-views beside the chats (SPEC §2 follow/list and records/list with status
 * and type tags, §9 record labels), against the real server; and the call ends behind those
 * labels (SPEC §4 who ended a call, §8 call messages), each recorded as what happened.
 */
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { callScreen, firstAccount, openAppAs, phoneOf } from './support';

const endScreen = (page: Page) => page.getByRole('dialog', { name: 'Call ended' });
const closeEnd = (page: Page) => endScreen(page).getByRole('button', { name: 'Close' }).click();

/**
 * A phone's signalling link, passed through as it is, that the test can cut (the socket closes and
 * new ones are refused, as when the link is out of reach) or whose ring the hub refuses (an error
 * answer to the ring, as an unexpected failure of the signalling service would give).
 */
async function signallingOf(page: Page) {
  const link = { cut: false, refuseRing: false, close: () => undefined as void };
  await page.routeWebSocket(/\/realtime\/signal$/, (ws) => {
    if (link.cut) {
      ws.close({ code: 1011, reason: 'out of reach' });
      return;
    }
    const server = ws.connectToServer();
    link.close = () => {
      ws.close({ code: 1011, reason: 'out of reach' });
      void server.close();
    };
    ws.onMessage((message) => {
      const frame = JSON.parse(String(message)) as { id?: number; op?: string; action?: number };
      if (link.refuseRing && frame.op === 'send' && (frame.action === 0 || frame.action === 10)) {
        ws.send(JSON.stringify({ id: frame.id, ok: false, code: 500, message: 'The signalling service failed' }));
        return;
      }
      server.send(message);
    });
    server.onMessage((message) => ws.send(message));
  });
  return link;
}

test('a user sees who they follow; refused, cancelled, missed calls show as [rejected], [Cancelled], [Missed] video calls on both sides, with §8\'s texts', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const host = await firstAccount(request, 2);
  // A second host whose level may call users (SPEC §5), to call the user while the user is in a call.
  const caller = await firstAccount(request, 2);
  const user = await firstAccount(request, 1, (a) => a.userLevel === 1);
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  const hostLink = await signallingOf(h.page);
  const userLink = await signallingOf(u.page);
  await openAppAs(u.page, request, user.userId, '/newsRestricted');
  await u.page.getByRole('tab', { name: 'Following' }).click();
  // Seeded users follow three hosts each.
  await expect(u.page.getByRole('list', { name: 'Following' }).getByRole('listitem')).toHaveCount(3);

  await openAppAs(h.page, request, host.userId);
  await expect(h.page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await u.page.goto(`/talk?to=${host.yxAccid}&taPath=e2e`);
  const callHost = () => u.page.getByRole('button', { name: `Video call ${host.nickname}` }).click();

  // Refused: the host taps Reject.
  await callHost();
  await expect(callScreen(h.page)).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  await callScreen(h.page).getByRole('button', { name: 'Reject' }).click();
  await expect(endScreen(u.page)).toContainText('The other party has refused.');
  await closeEnd(u.page);
  await closeEnd(h.page);

  // Cancelled: the user taps Cancel while the host's phone rings; the host's app reports the end
  // first (the user's own report is held back here, as a slow network would), and the record is
  // the user's all the same. Meanwhile a host who calls the user, who is in a call, hears 'The
  // user is busy.' (SPEC §8).
  let slowEnd = true;
  await u.page.route('**/api/call/record/v2/endCall', async (route) => {
    if (slowEnd) await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
  await callHost();
  await expect(callScreen(h.page)).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  const c = await phoneOf(browser);
  await openAppAs(c.page, request, caller.userId, `/userProfile?userId=${user.userId}`);
  await c.page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(endScreen(c.page).getByRole('status').first()).toHaveText('The user is busy.', { timeout: 10_000 });
  await c.page.setViewportSize({ width: 360, height: 740 });
  await c.page.screenshot({ path: test.info().outputPath('user-busy-360.png') });
  await c.context.close();
  await callScreen(u.page).getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(endScreen(h.page)).toBeVisible({ timeout: 10_000 });
  await closeEnd(u.page);
  await closeEnd(h.page);
  slowEnd = false;

  // Missed: the host's signalling is out of reach (her app is open), so the ring finds nobody
  // (SPEC §8 'the user is currently unavaliable'): the user is told she is not available, and
  // the host, whose app the server told of the call (-3 type 0), that she missed it.
  hostLink.cut = true;
  hostLink.close();
  await callHost();
  await expect(endScreen(u.page).getByRole('status').first()).toHaveText("She's not available right now;you can call another girl instead.", { timeout: 10_000 });
  await expect(h.page.getByText(`You missed a call from ${user.nickname}.`)).toBeVisible({ timeout: 10_000 });
  await h.page.setViewportSize({ width: 360, height: 740 });
  await h.page.screenshot({ path: test.info().outputPath('missed-call-360.png') });
  await closeEnd(u.page);

  // An unexpected failure of the call (the signalling service fails the ring): 'Error!'.
  userLink.refuseRing = true;
  await callHost();
  await expect(endScreen(u.page).getByRole('status').first()).toHaveText('Error!', { timeout: 10_000 });
  await u.page.setViewportSize({ width: 360, height: 740 });
  await u.page.screenshot({ path: test.info().outputPath('call-error-360.png') });
  await closeEnd(u.page);

  // Newest first: the failed call (the user's own end), the missed one, the cancelled one, the refused one.
  const labels = ['[Cancelled]', '[Missed]', '[Cancelled]', '[rejected]'];
  for (const [page, path, peer] of [[u.page, '/newsRestricted', host], [h.page, '/news', user]] as const) {
    await page.goto(path);
    await page.getByRole('tab', { name: 'Call records' }).click();
    const records = page.getByRole('list', { name: 'Call records' }).getByRole('listitem').filter({ hasText: peer.nickname });
    await expect(records.first().locator('[data-kind="type"]')).toHaveText('Video');
    await expect(records.locator('[data-kind="status"]')).toHaveText(labels);
  }
  await h.context.close();
  await u.context.close();
});
