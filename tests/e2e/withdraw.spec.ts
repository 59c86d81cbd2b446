/**
 * Money out, end to end on the reference server (SPEC §2 /wallet with addCollectionMethod,
 * collectionInfo, withdrawal, withdrawalRecord; §6 host: withdrawal): a host's income from a call
 * shows in the income history; a host adds a collection method (a wrong number refused first),
 * sets a withdrawal password, is refused a wrong one, applies twice, sees the income drop at
 * once, and the dev shell's operator pays one and refuses the other, whose diamonds come back
 * once.
 */
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { TEXT_BANK_NUMBER, textWrongPassword } from '../../machines/codes/withdraw.codes';
import { callScreen, firstAccount, openAppAs, phoneOf, present } from './support';

const income = async (page: Page) => Number((await page.getByTestId('host-income').textContent())!.replace(/\D/g, ''));

/** From the host's wallet: Withdraw, an amount to the first method, the password; answers the record's status line. */
async function withdraw(page: Page, amount: number, password: string) {
  await page.getByRole('link', { name: 'Withdraw', exact: true }).click();
  const form = page.getByRole('form', { name: 'Withdrawal' });
  await form.getByLabel('Amount in diamonds').fill(String(amount));
  await form.getByRole('button', { name: 'Next' }).click();
  const confirm = page.getByRole('form', { name: 'Confirm the withdrawal' });
  await confirm.getByLabel('Withdrawal password').fill(password);
  await confirm.getByRole('button', { name: 'Apply for withdrawal' }).click();
  return confirm;
}

/** The dev shell's operator panel, as a back office would: the host's newest withdrawal of `amount`, paid or refused. */
async function operate(request: APIRequestContext, page: Page, hostId: number, amount: number, action: 'paid' | 'refused', reason = '') {
  const response = await request.get('/shell/api/withdrawals');
  expect(response.ok()).toBe(true);
  const { list } = (await response.json()) as { list: { id: number; hostId: number; amount: number; status: string }[] };
  const mine = list.find((w) => w.hostId === hostId && w.amount === amount);
  expect(mine, `the withdrawal of ${amount} by ${hostId}`).toBeDefined();
  const id = mine!.id;
  await page.goto('/shell');
  await page.getByTestId('withdrawals-refresh').click();
  if (action === 'refused') {
    await page.getByTestId(`withdrawal-reason-${id}`).fill(reason);
    await page.getByTestId(`withdrawal-refuse-${id}`).click();
  } else {
    await page.getByTestId(`withdrawal-paid-${id}`).click();
  }
  await expect(page.getByTestId(`withdrawal-status-${id}`)).toHaveText(action === 'refused' ? `refused: ${reason}` : 'paid');
  return id;
}

test('[§6 withdrawal] the income of a call shows in the host\'s income history, by kind', async ({ browser, request }) => {
  test.setTimeout(60_000);
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1, (a) => a.userLevel === 1);
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  const hostHere = present(h.page);
  await openAppAs(h.page, request, host.userId);
  await hostHere;
  await openAppAs(u.page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);

  // An audio call (no camera needed): the first period is charged as she answers, and is the host's income.
  await u.page.getByRole('button', { name: `Audio call ${host.nickname}` }).click();
  await expect(callScreen(h.page)).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  await callScreen(h.page).getByRole('button', { name: 'Accept' }).click();
  await expect(callScreen(h.page)).toHaveAttribute('data-phase', 'connected', { timeout: 15_000 });
  const shown = callScreen(h.page).getByTestId('call-income');
  await expect(shown).toHaveText(/Call income [1-9]\d*/);
  await callScreen(h.page).getByRole('button', { name: 'End call' }).click();
  await expect(h.page.getByRole('dialog', { name: 'Call ended' })).toBeVisible();

  await h.page.goto('/wallet');
  const history = h.page.getByRole('tabpanel');
  const newest = history.getByRole('article').first();
  await expect(newest).toHaveAccessibleName('Video call');
  await expect(newest).toContainText(/\+[1-9]\d*/);
  // Only the calls' income, then only the live gifts' (this host had none).
  await h.page.getByLabel('Kind').selectOption({ label: 'Video call' });
  await expect(history.getByRole('article').first()).toHaveAccessibleName('Video call');
  await expect(history.getByRole('article', { name: 'Gift in a call' })).toHaveCount(0);
  await h.page.getByLabel('Kind').selectOption({ label: 'Live gift' });
  await expect(history.getByText('No income in this view yet.')).toBeVisible();
  await h.context.close();
  await u.context.close();
});

test('[§6 withdrawal] a host adds a collection method, sets a password, is refused a wrong one, withdraws twice; the operator pays one and refuses the other, whose diamonds come back once', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const host = await firstAccount(request, 2);
  const h = await phoneOf(browser);
  await openAppAs(h.page, request, host.userId, '/wallet');
  await expect(h.page.getByTestId('host-income')).toBeVisible();
  const before = await income(h.page);
  expect(before).toBeGreaterThanOrEqual(2000);

  // No password yet: the withdrawal asks for one first.
  await h.page.getByRole('link', { name: 'Withdraw', exact: true }).click();
  const setForm = h.page.getByRole('form', { name: 'Set withdrawal password' });
  await setForm.getByLabel('Withdrawal password').fill('246810');
  await setForm.getByLabel('Type it again').fill('246810');
  await setForm.getByRole('button', { name: 'Save password' }).click();

  // No collection method yet: added from here, a wrong number refused before anything is sent.
  await h.page.getByRole('link', { name: 'Add a collection method' }).click();
  const add = h.page.getByRole('form', { name: 'Add a collection method' });
  await add.getByLabel('Bank account').check();
  await add.getByLabel('Account holder').fill('Maria Lopez');
  await add.getByLabel('Bank name').fill('Banco Uno');
  await add.getByLabel('Account number or IBAN').fill('12');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add.getByText(TEXT_BANK_NUMBER)).toBeVisible();
  await add.getByLabel('Account number or IBAN').fill('ES91 2100 0418 4502 0005 1332');
  await add.getByRole('button', { name: 'Save' }).click();

  // Back at the withdrawal, the new method chosen, shown masked.
  const form = h.page.getByRole('form', { name: 'Withdrawal' });
  await expect(form.getByRole('radio', { name: /Banco Uno •••• 1332/ })).toBeChecked();
  await expect(h.page.getByText('ES9121000418')).toHaveCount(0);
  await form.getByLabel('Amount in diamonds').fill('1000');
  await form.getByRole('button', { name: 'Next' }).click();
  const confirm = h.page.getByRole('form', { name: 'Confirm the withdrawal' });
  // 5 % fee (50 diamonds), 950 at 100 a dollar.
  await expect(confirm.getByTestId('withdraw-usd')).toHaveText('US$ 9.50');
  await confirm.getByLabel('Withdrawal password').fill('000000');
  await confirm.getByRole('button', { name: 'Apply for withdrawal' }).click();
  await expect(confirm.getByRole('alert')).toHaveText(textWrongPassword(4));
  await confirm.getByLabel('Withdrawal password').fill('246810');
  await confirm.getByRole('button', { name: 'Apply for withdrawal' }).click();
  await expect(h.page.getByRole('status', { name: 'Withdrawal applied' })).toBeVisible();

  // The balance drops at once: the amount is held.
  await h.page.getByRole('button', { name: 'Back to wallet' }).click();
  await expect(h.page.getByTestId('host-income')).toHaveText((before - 1000).toLocaleString());
  await expect(h.page.getByTestId('host-held')).toHaveText((1000).toLocaleString());

  // A second one, of 1100.
  await withdraw(h.page, 1100, '246810');
  await expect(h.page.getByRole('status', { name: 'Withdrawal applied' })).toBeVisible();

  // The operator pays the first and refuses the second.
  const shell = await h.context.newPage();
  await operate(request, shell, host.userId, 1000, 'paid');
  const refused = await operate(request, shell, host.userId, 1100, 'refused', 'The account name does not match');
  // An ended withdrawal offers no more moves, and one sent anyway (a replay) moves nothing.
  await expect(shell.getByTestId(`withdrawal-refuse-${refused}`)).toHaveCount(0);
  const again = await request.post('/shell/api/withdrawals/move', { data: { id: refused, to: 'refused', reason: 'again' } });
  expect(again.status()).toBe(409);
  await shell.close();

  await h.page.goto('/wallet/withdrawalRecord');
  const records = h.page.getByRole('article');
  await expect(h.page.getByRole('article', { name: 'Withdrawal of 1100 diamonds' })).toContainText('Refused: The account name does not match.');
  await expect(h.page.getByRole('article', { name: 'Withdrawal of 1000 diamonds' })).toContainText('Paid');
  await expect(records).toHaveCount(2);
  await h.page.goto('/wallet');
  await expect(h.page.getByTestId('host-income')).toHaveText((before - 1000).toLocaleString());
  await expect(h.page.getByTestId('host-held')).toHaveText('0');
  // Each end told the host by a system mail.
  await h.page.goto('/news');
  await h.page.getByRole('tab', { name: 'System messages' }).click();
  const mail = h.page.getByRole('list', { name: 'System messages' });
  await expect(mail.getByRole('article', { name: 'Withdrawal refused' })).toContainText('Your withdrawal of 1100 diamonds was refused');
  await expect(mail.getByRole('article', { name: 'Withdrawal paid' })).toContainText('Your withdrawal of 1000 diamonds (US$ 9.50) was paid.');
  await h.context.close();
});
