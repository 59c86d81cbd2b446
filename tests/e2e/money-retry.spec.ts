/**
 * Money sent again after its answer was lost (src/api/contract/idempotency.ts): the server
 * carried the request out, the answer never reached the app (the connection dropped), and the
 * person tries again. The retry carries the first request's idempotency key, so the server
 * answers it as it answered the first and takes nothing more: a gift in a call is paid once,
 * a secret message is paid once. The bodies are read as the server reads them (the shared
 * development AES key).
 */
import { expect, test } from '@playwright/test';
import type { Page, Route } from '@playwright/test';
import { createAesCodec } from '../../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY } from '../../src/api/codes';
import { VIDEO_LOCK, accounts, callFromTalk, callScreen, firstAccount, openAppAs, phoneOf } from './support';

const codec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);
const opened = (text: string | null) => JSON.parse(codec.decrypt(text ?? '')) as Record<string, unknown>;

/**
 * Lets the first request to `path` (of those `which` picks) reach the server and drops its answer
 * (the connection is reset, as a lost mobile link would); the others go through. Keeps what was
 * sent and what the server answered.
 */
async function loseFirstAnswer(page: Page, path: string, which: (body: Record<string, unknown>) => boolean = () => true) {
  const seen = { bodies: [] as Record<string, unknown>[], answers: [] as Record<string, unknown>[] };
  let lost = false;
  await page.route(`**${path}`, async (route: Route) => {
    const body = opened(route.request().postData());
    seen.bodies.push(body);
    const response = await route.fetch();
    seen.answers.push(opened(await response.text()));
    if (!lost && which(body)) {
      lost = true;
      await route.abort('connectionreset');
    } else {
      await route.fulfill({ response });
    }
  });
  return seen;
}

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });

test('a secret message whose payment lost its answer is unlocked again with the same key, and paid once', async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  // Seeded users at level 1 start with 200 diamonds.
  const reader = await firstAccount(request, 1, (a) => a.userLevel === 1);
  const h = await phoneOf(browser);
  const r = await phoneOf(browser);
  await openAppAs(h.page, request, host.userId, `/talk?to=${reader.yxAccid}&taPath=e2e`);
  await expect(messages(h.page)).toHaveAttribute('data-history', 'loaded');
  await h.page.getByRole('button', { name: 'Secret message' }).click();
  const form = h.page.getByRole('form', { name: 'Secret message' });
  await form.getByLabel('Secret text').fill('Only once');
  await form.getByLabel('Price (diamonds)').fill('20');
  await form.getByRole('button', { name: 'Send secret message' }).click();
  await expect(messages(h.page)).toHaveAttribute('data-sending', '0');

  await openAppAs(r.page, request, reader.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  // The payment's answer is lost (the look at the price and the balance before it goes through).
  const seen = await loseFirstAnswer(r.page, '/api/payPrivateMsg/privateInfo', (body) => body.pay === true);
  const unlock = messages(r.page).getByRole('button', { name: 'Unlock for 20 diamonds' });
  await unlock.click();
  await r.page.getByRole('dialog', { name: 'Unlock this secret message?' }).getByRole('button', { name: 'Unlock for 20 diamonds' }).click();
  // Paid on the server, but the app never heard: it still shows the locked message, to be tried again.
  await expect.poll(() => seen.answers.length).toBe(2);
  await expect(unlock).toBeEnabled();
  await expect(messages(r.page).getByText('Only once')).toHaveCount(0);
  // The person agreed to this payment already: Unlock sends it again, under its key, without asking again.
  await unlock.click();
  await expect(messages(r.page).getByText('Only once')).toBeVisible();

  const payments = seen.bodies.flatMap((body, i) => (body.pay === true ? [{ body, answer: seen.answers[i]! }] : []));
  expect(payments).toHaveLength(2);
  const [first, retry] = payments.map((p) => p.body);
  expect(retry).toEqual(first);
  expect(first).toMatchObject({ pay: true, idempotencyKey: expect.stringMatching(/^[A-Za-z0-9_-]{16,64}$/) });
  // The retry is answered as the payment was: the balance it left, 20 diamonds taken once.
  const [paid, again] = payments.map((p) => p.answer) as { data: { balance: number } }[];
  expect(again).toEqual(paid);
  expect(paid!.data.balance).toBe(180);
  await h.context.close();
  await r.context.close();
});

test.describe('in a call', () => {
  // Video flows here: one such test at a time (VIDEO_LOCK).
  test.describe.configure({ lock: VIDEO_LOCK });

  test('a gift whose answer was lost is sent again with the same key: the host gets it once, the user pays once', async ({ browser, request }) => {
    test.setTimeout(90_000);
    // Seeded hosts 1, 7, 13, … charge 30 diamonds a minute (a period here is 2 s); seeded level-0 users
    // have 1000 diamonds, so the call lasts the test: taken from the end of the list, past the two
    // call-gifts.spec.ts takes (firstAccount never gives level 0), one per worker.
    const host = await firstAccount(request, 2, (a) => (a.userId - 100_001) % 6 === 0);
    const rich = (await accounts(request)).filter((a) => a.userType === 1 && a.userLevel === 0).reverse();
    const user = rich[2 + (test.info().parallelIndex % 2)]!;
    const h = await phoneOf(browser);
    const u = await phoneOf(browser);
    await openAppAs(h.page, request, host.userId);
    await expect(h.page.getByRole('heading', { name: 'Home' })).toBeVisible();
    await openAppAs(u.page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
    await callFromTalk(u.page, h.page, host);

    const seen = await loseFirstAnswer(u.page, '/api/gift/send');
    const sendRoses = async () => {
      await callScreen(u.page).getByRole('button', { name: 'Send a gift' }).click();
      const gifts = callScreen(u.page).getByRole('dialog', { name: 'Popular' });
      await gifts.getByRole('button', { name: 'Rose, 1 diamonds' }).click();
      await gifts.getByLabel('Quantity').fill('2');
      await expect(gifts.getByLabel('Quantity')).toHaveValue('2');
      await gifts.getByRole('button', { name: 'Sure' }).click();
    };
    await sendRoses();
    await expect(callScreen(u.page).getByText('We could not tell whether your gift was sent.', { exact: false })).toBeVisible();
    // The server took it: the host has it already.
    await expect(callScreen(h.page).getByTestId('gift-income')).toHaveText('Gift income 2', { timeout: 10_000 });

    await sendRoses();
    await expect(callScreen(u.page).getByText('Gift sent')).toBeVisible();
    const [first, retry] = seen.bodies;
    expect(retry).toEqual(first);
    expect(first).toMatchObject({ giftId: 1, giftNum: 2, idempotencyKey: expect.stringMatching(/^[A-Za-z0-9_-]{16,64}$/) });
    const [paid, again] = seen.answers;
    expect(again).toEqual(paid);
    // Nothing more reached the host (a second payment would have made it 4 within a second).
    await u.page.waitForTimeout(1_500);
    await expect(callScreen(h.page).getByTestId('gift-income')).toHaveText('Gift income 2');

    await callScreen(u.page).getByRole('button', { name: 'End call' }).click();
    await expect(u.page.getByRole('dialog', { name: 'Call ended' })).toBeVisible();
    await h.context.close();
    await u.context.close();
  });
});
