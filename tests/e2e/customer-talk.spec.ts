/**
 * /customer-talk against the real reference server (SPEC §2; §7 Chat and feedback): common
 * problems open to their replies, the server's refusal of a short feedback is shown, and a
 * valid feedback is stored once however often Send is tapped.
 */
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { getAnchorFeedbackSubmit, TEXT_FEEDBACK_TOO_SHORT } from '../../src/api/contract/chat';
import { firstAccount, openAppAs, watchPage } from './support';

const feedback = (page: Page) => page.getByRole('region', { name: 'Feedback' });

async function openCustomerTalk(page: Page, request: Parameters<typeof firstAccount>[0]) {
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId, '/customer-talk');
  await expect(page.getByRole('heading', { name: 'Customer service', level: 1 })).toBeVisible();
}

test('a host taps a common problem and reads the reply; problems for users only are not listed', async ({ page, request }) => {
  const problems = watchPage(page);
  await openCustomerTalk(page, request);
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
  expect(problems).toEqual([]);
});

test('a feedback that is too short gets the server\'s reason, and what was written stays', async ({ page, request }) => {
  await openCustomerTalk(page, request);
  await feedback(page).getByLabel('Feedback type').selectOption('Suggestion');
  await feedback(page).getByLabel('Describe the problem').fill('abc');
  await expect(feedback(page).getByTestId('feedback-count')).toHaveText('3 / 500');
  await feedback(page).getByRole('button', { name: 'Send feedback' }).click();
  await expect(feedback(page).getByRole('alert')).toHaveText(TEXT_FEEDBACK_TOO_SHORT);
  await expect(feedback(page).getByLabel('Describe the problem')).toHaveValue('abc');
});

test('a valid feedback is sent once however often Send is tapped, and thanked for', async ({ page, request }) => {
  const sent: string[] = [];
  page.on('request', (r) => { if (new URL(r.url()).pathname === getAnchorFeedbackSubmit.path) sent.push(r.method()); });
  await openCustomerTalk(page, request);
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
