/** `?inspect=1` starts the Stately inspector on the root actor; off by default (see shell.spec). */
import { expect, test } from '@playwright/test';
import { firstAccount, openParams } from './support';

test('?inspect=1 opens the Stately inspector window and the app still starts', async ({ page, context, request }) => {
  // The machine has no way out: answer the inspector's page locally instead of the network.
  await context.route('https://stately.ai/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>inspector</title>' }));
  const host = await firstAccount(request, 2);
  const params = new URLSearchParams(await openParams(request, host.userId));
  const popup = page.waitForEvent('popup');
  await page.goto(`/?inspect=1&${params}`);
  expect((await popup).url()).toMatch(/^https:\/\/stately\.ai\/inspect/);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
});
