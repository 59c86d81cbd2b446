/**
 * [§6] A visitor may log in and register only. Entered from the landing page, a visitor
 * browses (station messages, a host's profile) and, where a signed-up person would act (chat,
 * follow, call, Mine's workspace), is asked to sign up or log in instead: the app sends no
 * request that acts and opens no IM, presence or signalling socket, and the server refuses the
 * visitor's session what the app does not send. Sign up from the prompt ends the visit on the
 * registration form.
 */
import { expect, test } from '@playwright/test';
import { createAesCodec } from '../../src/api/codec';
import { APP_VERSION, DEV_AES_IV, DEV_AES_KEY, Header, ResultCode, TEXT_VISITOR_REFUSED } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { accounts, watchPage } from './support';

const codec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);
/** API paths of requests that act on someone or move money: none may leave a visitor's app. */
const ACTING = /^\/api\/(user\/(followUser|blockUser|removeBlockUser|updateUserInfo)|call\/|gift\/|payPrivateMsg\/|upload|index\/getAgoraRtmToken|agora\/live\/getRoomAndJoinRoom)/;

test('[§6] a visitor browses, is asked to sign up where they would act, and no request that acts is sent', async ({ page, request }) => {
  const problems = watchPage(page);
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(new URL(ws.url()).pathname));
  const acting: string[] = [];
  const refused: string[] = [];
  page.on('request', (r) => {
    if (ACTING.test(new URL(r.url()).pathname)) acting.push(new URL(r.url()).pathname);
  });
  page.on('response', async (r) => {
    if (!new URL(r.url()).pathname.startsWith('/api/')) return;
    const text = await r.text().catch(() => '');
    try {
      if ((JSON.parse(codec.decrypt(text)) as { code: string }).code === ResultCode.visitorRefused) refused.push(new URL(r.url()).pathname);
    } catch {
      // Not an envelope (an upload's progress, a static file): nothing to count.
    }
  });
  const host = (await accounts(request)).find((a) => a.userType === 2)!;

  await page.goto('/landingPage');
  await page.getByRole('button', { name: 'Continue as a visitor' }).click();
  await expect(page).toHaveURL(/\/newsRestricted$/);
  // Chats are for signed-up people; the station messages are for everyone.
  await expect(page.getByTestId('sign-up-prompt')).toContainText('Sign up or log in to chat with hosts');
  await page.screenshot({ path: test.info().outputPath('visitor-news-360.png') });
  await page.getByRole('tab', { name: 'Station messages' }).click();
  await expect(page.getByText('Community guidelines')).toBeVisible();

  await page.getByRole('link', { name: 'Mine' }).click();
  // News stays mounted behind Mine (a cached view): the prompt on show is Mine's.
  await expect(page.getByTestId('sign-up-prompt').filter({ hasText: 'for your wallet' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('visitor-mine-360.png') });

  // A host's profile: there to see; Follow and Chat ask the visitor to sign up.
  await page.goto(`/userProfile?userId=${host.userId}`);
  await expect(page.getByRole('article', { name: host.nickname })).toBeVisible();
  await page.getByRole('button', { name: 'Follow' }).click();
  const prompt = page.getByRole('dialog', { name: 'Sign up to continue' });
  await expect(prompt).toContainText(TEXT_VISITOR_REFUSED);
  const signUp = prompt.getByRole('button', { name: 'Sign up' });
  // At 360 px, once the sheet is up: both buttons whole on screen, each 44 px tall or more.
  for (const button of [signUp, prompt.getByRole('button', { name: 'Log in' })]) {
    await expect(button).toBeInViewport({ ratio: 1 });
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  await page.screenshot({ path: test.info().outputPath('visitor-profile-prompt-360.png') });
  await prompt.getByRole('button', { name: 'Close' }).click();
  await expect(prompt).toBeHidden();
  await page.getByRole('button', { name: 'Chat' }).click();
  await expect(prompt).toBeVisible();

  // Nothing that acts left the app, no hub socket was opened, and the server never had to refuse.
  expect(acting).toEqual([]);
  expect(sockets.filter((path) => path.startsWith('/realtime/'))).toEqual([]);
  expect(refused).toEqual([]);
  // What the app does not send, the server refuses to the visitor's session.
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('app.auth')!) as { token: string }).token);
  const follow = await request.post(endpoints.followUser.path, {
    headers: {
      'content-type': 'text/plain;charset=utf-8', [Header.loginToken]: token, [Header.anchorToken]: token,
      [Header.appId]: 'web', [Header.appVersion]: APP_VERSION,
    },
    data: codec.encrypt(JSON.stringify({ beFollowUserId: host.userId, follow: true })),
  });
  expect(JSON.parse(codec.decrypt(await follow.text()))).toEqual({ code: ResultCode.visitorRefused, message: TEXT_VISITOR_REFUSED });

  // Sign up: the visit ends and the registration form shows.
  await signUp.click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('app.auth'))).toBeNull();
  expect(problems).toEqual([]);
});
