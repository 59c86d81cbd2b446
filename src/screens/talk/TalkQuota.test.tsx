// @vitest-environment jsdom
/**
 * The talk screen with the non-paid user quota (SPEC §4 Recharge; §3 businessConfig.nonPaidUserCount
 * 3 from the app settings): the root actor composed with the fake session port, auto-mode realtime
 * fakes, a wallet of a person who never paid and the day's record on the device. A text to a fourth
 * person is not sent and stays in the field, the talk says why and offers Recharge; a text to
 * someone already written to today goes.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeChatQuotaPort } from '../../../machines/ports/chat-quota.fake';
import { FakeSessionPort, sampleAuth, sampleProfile } from '../../../machines/ports/session.fake';
import { FakeWalletPort } from '../../../machines/ports/wallet.fake';
import { TEXT_CHAT_LIMIT, localDayOf } from '../../../machines/talk/chat-quota';
import { autoRealtime } from '../../../machines/testing/realtime';
import { fakeServices } from '../../compose/services.fake';
import { renderApp, signedInHandlers } from '../../app/app.testing';
import { RECHARGE_PATH } from '../../app/recharge';
import { screens } from '../../app/screens';

afterEach(cleanup);
window.scrollTo = () => {};

beforeAll(async () => {
  await Promise.all([
    ...screens.filter((s) => s.path === '/talk').map((s) => s.load()),
    import('../../../machines/session/per-use.actors'),
  ]);
}, 60_000);

/** A user who wrote to three people today opens the talk with `peer`. */
function mountTalk(peer: string) {
  const account = 'yx-me';
  const profile = sampleProfile({ userType: 1, yxAccid: account, imToken: `im-${account}` });
  const realtime = autoRealtime(account, `im-${account}`);
  const chatQuota = new FakeChatQuotaPort();
  chatQuota.save(account, localDayOf(Date.now()), ['yx-a', 'yx-b', 'yx-c']);
  const wallet = new FakeWalletPort('auto', { summary: { diamonds: 0, vip: false, paid: false } });
  renderApp({
    ports: { session: new FakeSessionPort('auto', { [account]: profile }), realtime: { ...realtime.ports, wallet, chatQuota } },
    openParams: sampleAuth({ token: `token-${account}` }),
    path: `/talk?to=${peer}&taPath=test`,
    services: fakeServices(signedInHandlers),
  });
  return { chatQuota, account };
}

const field = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLInputElement;
const list = () => screen.getByRole('list', { name: 'Messages' });

describe('[§4 Recharge] the non-paid user quota on the talk screen', () => {
  it('a text to a fourth person today is not sent: it stays in the field, the talk says why and offers Recharge', async () => {
    const { chatQuota, account } = mountTalk('yx-d');
    const notice = await screen.findByTestId('chat-limit', {}, { timeout: 5000 });
    expect(notice.querySelector('p')?.textContent).toBe(TEXT_CHAT_LIMIT);
    const recharge = screen.getByRole('link', { name: 'Recharge' });
    expect(recharge.getAttribute('href')).toBe(RECHARGE_PATH);
    await waitFor(() => expect(list().dataset.history).toBe('loaded'));
    fireEvent.change(field(), { target: { value: 'Hello there' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(field().value).toBe('Hello there');
    expect(list().dataset.count).toBe('0');
    expect(chatQuota.load(account, localDayOf(Date.now()))).toEqual(['yx-a', 'yx-b', 'yx-c']);
  });

  it('a text to someone already written to today is sent, and the field is cleared', async () => {
    mountTalk('yx-b');
    await waitFor(() => expect(list().dataset.history).toBe('loaded'), { timeout: 5000 });
    fireEvent.change(field(), { target: { value: 'Hello again' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(field().value).toBe('');
    expect(list().dataset.count).toBe('1');
    expect(screen.queryByTestId('chat-limit')).toBeNull();
  });
});
