/**
 * /customer-talk against the real reference server (SPEC §2; §7 Chat and feedback): Mine and
 * Settings lead there and to its feedback form, common problems open to their replies, the chat
 * with customer service offers no Block and no secret message and shows in News as Customer
 * Service with its picture, the server's refusal of a short feedback is shown, and a valid
 * feedback is stored once however often Send is tapped.
 */
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { getAnchorFeedbackSubmit, TEXT_FEEDBACK_TOO_SHORT } from '../../src/api/contract/chat';
import { firstAccount, openAppAs, tabBar, watchPage } from './support';

const feedback = (page: Page) => page.getByRole('region', { name: 'Feedback' });
const help = (page: Page) => page.getByRole('navigation', { name: 'Help' });

/** Opens `path` (Mine or Settings) as a person of `userType` and follows its Feedback link. */
async function openFeedbackFrom(page: Page, request: APIRequestContext, userType: 1 | 2, path: string) {
  const person = await firstAccount(request, userType);
  await openAppAs(page, request, person.userId, path);
  await expect(help(page).getByRole('link', { name: 'Customer service' })).toHaveAttribute('href', '/customer-talk');
  await page.screenshot({ path: test.info().outputPath(`${path.slice(1)}-360.png`), fullPage: true });
  await help(page).getByRole('link', { name: 'Feedback' }).click();
  await expect(page).toHaveURL(/\/customer-talk#feedback$/);
  // The form is in view and its heading has focus.
  await expect(feedback(page).getByRole('heading', { name: 'Feedback' })).toBeFocused();
  await expect(feedback(page).getByLabel('Describe the problem')).toBeInViewport();
}

test('a host opens customer service from Mine and reads a common problem\'s reply; the chat there offers no Block and no secret message, and News names it Customer Service with its picture', async ({ page, request }) => {
  const problems = watchPage(page);
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId, '/mine');
  await expect(help(page).getByRole('link', { name: 'Feedback' })).toHaveAttribute('href', '/customer-talk#feedback');
  await page.screenshot({ path: test.info().outputPath('mine-360.png'), fullPage: true });
  // Customer service answers no profile lookup; once one is answered, Block would show if it were offered.
  const lookedUp = page.waitForResponse((r) => r.url().endsWith('/api/anchor/batchQueryYxStat'));
  await help(page).getByRole('link', { name: 'Customer service' }).click();
  await expect(page.getByRole('heading', { name: 'Customer service', level: 1 })).toBeVisible();
  const question = page.getByRole('button', { name: 'How do I withdraw my income?' });
  await expect(question).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByText('Open Wallet, add a collection method, then apply for a withdrawal.')).toBeHidden();
  await question.click();
  await expect(question).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('region', { name: 'How do I withdraw my income?' }))
    .toHaveText('Open Wallet, add a collection method, then apply for a withdrawal.');
  await expect(page.getByRole('button', { name: 'How do I recharge diamonds?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'How is a call billed?' })).toHaveCount(0);

  // 360 px wide: nothing sticks out sideways, and the problems are 44 px touch targets.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  for (const box of await Promise.all((await page.locator('.cs-problem-toggle').all()).map((b) => b.boundingBox()))) {
    expect(box!.height).toBeGreaterThanOrEqual(44);
  }
  await question.click();
  await expect(page.getByRole('region', { name: 'How do I withdraw my income?' })).toHaveCount(0);

  // The chat with customer service: no secret message (hosts write them to people), no Block.
  const chat = page.getByRole('region', { name: 'Chat with customer service' });
  const messages = chat.getByRole('list', { name: 'Messages' });
  await expect(messages).toHaveAttribute('data-history', 'loaded');
  await expect(chat.getByRole('button', { name: 'Secret message' })).toHaveCount(0);
  const text = `Hello, customer service (${Date.now()})`;
  await chat.getByRole('textbox', { name: 'Message' }).fill(text);
  await chat.getByRole('button', { name: 'Send' }).click();
  await expect(messages.locator('[data-status="sent"]').filter({ hasText: text })).toBeVisible();
  await lookedUp;
  await expect(chat.getByRole('button', { name: /^(Block|Unblock)$/ })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('customer-talk-360.png') });

  // In News the chat is Customer Service with its own picture, not the writer's name.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await tabBar(page).getByRole('link', { name: /^News/ }).click();
  const row = page.getByRole('list', { name: 'Chats' }).getByRole('link', { name: `Customer Service: ${text}` });
  await expect(row).toBeVisible({ timeout: 10_000 });
  const avatar = row.locator('img[data-avatar="customer-service"]');
  await expect(avatar).toHaveAttribute('src', '/icons/customer-service.svg');
  await expect.poll(() => avatar.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByRole('list', { name: 'Chats' })).not.toContainText(host.nickname);
  await page.screenshot({ path: test.info().outputPath('news-360.png') });
  expect(problems).toEqual([]);
});

test('a user opens feedback from Mine; a feedback that is too short gets the server\'s reason, and what was written stays', async ({ page, request }) => {
  await openFeedbackFrom(page, request, 1, '/mineRestricted');
  await page.screenshot({ path: test.info().outputPath('feedback-360.png') });
  await feedback(page).getByLabel('Feedback type').selectOption('Suggestion');
  await feedback(page).getByLabel('Describe the problem').fill('abc');
  await expect(feedback(page).getByTestId('feedback-count')).toHaveText('3 / 500');
  await feedback(page).getByRole('button', { name: 'Send feedback' }).click();
  await expect(feedback(page).getByRole('alert')).toHaveText(TEXT_FEEDBACK_TOO_SHORT);
  await expect(feedback(page).getByLabel('Describe the problem')).toHaveValue('abc');
});

test('a host opens feedback from Settings; a valid feedback is sent once however often Send is tapped, and thanked for', async ({ page, request }) => {
  const sent: string[] = [];
  page.on('request', (r) => { if (new URL(r.url()).pathname === getAnchorFeedbackSubmit.path) sent.push(r.method()); });
  await openFeedbackFrom(page, request, 2, '/settings');
  const form = feedback(page);
  await form.getByLabel('Feedback type').selectOption('Call quality');
  await form.getByLabel('Describe the problem').fill(`The picture froze twice during a call (${Date.now()}).`);
  await form.getByLabel('Contact (optional)').fill('host@example.com');
  await form.getByRole('button', { name: 'Send feedback' }).dblclick();
  await expect(form.getByRole('status')).toHaveText('Thank you! Your feedback reached us.');
  await expect(page.getByText('Feedback sent', { exact: true })).toBeVisible();
  expect(sent).toEqual(['POST']);

  await form.getByRole('button', { name: 'Write another' }).click();
  await expect(form.getByLabel('Describe the problem')).toHaveValue('');
  await expect(form.getByRole('button', { name: 'Send feedback' })).toBeDisabled();
});
