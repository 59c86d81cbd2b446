// @vitest-environment jsdom
/**
 * Screen test of the mail list (SPEC §2 message/systemMsg, message/stationMsg; §7
 * /api/sysmail/loadList): the list follows its paged-list actor over a fake API.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { news } from '../../api/contract';
import type { SysMail } from '../../api/contract/news';
import { ServicesContext } from '../../app/services';
import { fakeServices, refusal } from '../../app/services.fake';
import type { FakeHandler } from '../../app/services.fake';
import { MAIL_PAGE_SIZE, MailList } from './MailList';

afterEach(cleanup);

const { MailType } = news;

const mail = (id: number, change: Partial<SysMail> = {}): SysMail => ({
  id, mailType: MailType.station, title: `Notice ${id}`, content: `Text ${id}`, createTime: Date.UTC(2025, 0, id), ...change,
});

function mount(mailType: news.MailType, loadList: FakeHandler) {
  const services = fakeServices({ [news.loadList.path]: loadList });
  render(
    <ServicesContext.Provider value={services}>
      <MailList mailType={mailType} />
    </ServicesContext.Provider>,
  );
  return services;
}

const page = (list: SysMail[], currentPage = 1) => ({ list, total: list.length, currentPage, pageSize: MAIL_PAGE_SIZE });

describe('[§2 /news mail] MailList', () => {
  it('asks for its kind of mail, 10 a page, and shows title, text and date', async () => {
    const services = mount(MailType.system, () => page([mail(2, { mailType: MailType.system, title: 'Welcome, Sofia!' })]));
    const list = await screen.findByRole('list', { name: 'System messages' });
    const item = within(list).getByRole('article', { name: 'Welcome, Sofia!' });
    expect(within(item).getByText('Text 2')).toBeTruthy();
    expect(item.querySelector('time')!.getAttribute('datetime')).toBe('2025-01-02T00:00:00.000Z');
    expect(services.requests).toEqual([
      { path: news.loadList.path, body: { currentPage: 1, pageSize: MAIL_PAGE_SIZE, mailType: MailType.system } },
    ]);
    // A short first page is the only one.
    expect(screen.getByText('No more messages')).toBeTruthy();
  });

  it('shows markup in a mail as the characters it is', async () => {
    const hostile = '<img src=x onerror="alert(1)"><b>bold</b>';
    mount(MailType.station, () => page([mail(1, { title: '<script>alert(1)</script>', content: hostile })]));
    const list = await screen.findByRole('list', { name: 'Station messages' });
    expect(within(list).getByText(hostile)).toBeTruthy();
    expect(within(list).getByRole('heading').textContent).toBe('<script>alert(1)</script>');
    expect(list.querySelector('img, b, script')).toBeNull();
  });

  it('says so when there is no mail', async () => {
    mount(MailType.station, () => page([]));
    expect(await screen.findByText('No station messages yet.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('shows why the first page failed, and Retry loads it again', async () => {
    let calls = 0;
    mount(MailType.station, () => {
      calls += 1;
      if (calls === 1) throw refusal('Server is busy, try later.');
      return page([mail(1)]);
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Server is busy, try later.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Notice 1' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('another mailType is another list, not the old items under a new name', async () => {
    const services = fakeServices({
      [news.loadList.path]: (body) => {
        const { mailType } = body as { mailType: news.MailType };
        return page([mail(mailType, { mailType, title: mailType === MailType.system ? 'A system mail' : 'A station notice' })]);
      },
    });
    const view = (mailType: news.MailType) => (
      <ServicesContext.Provider value={services}><MailList mailType={mailType} /></ServicesContext.Provider>
    );
    const { rerender } = render(view(MailType.system));
    expect(await screen.findByRole('article', { name: 'A system mail' })).toBeTruthy();
    rerender(view(MailType.station));
    const station = await screen.findByRole('list', { name: 'Station messages' });
    expect(within(station).getAllByRole('article').map((a) => a.textContent))
      .toEqual([expect.stringContaining('A station notice')]);
    expect(screen.queryByRole('article', { name: 'A system mail' })).toBeNull();
  });

  it('shows a loading status until the first page is there', async () => {
    let answer: (value: unknown) => void = () => {};
    mount(MailType.station, () => new Promise((resolve) => { answer = resolve; }));
    expect(screen.getByRole('status').textContent).toContain('Loading');
    answer(page([mail(1)]));
    await waitFor(() => expect(screen.queryByText('Loading…')).toBeNull());
    expect(screen.getByRole('article', { name: 'Notice 1' })).toBeTruthy();
  });
});
