// @vitest-environment jsdom
/**
 * Screen tests of the in-call pieces over real actors (SPEC §2 in-call screen; §5 in-call chat
 * trimmed, empty ignored, max 200; gift quantity max 99, an integer; price filter; ask
 * cooldown): the DOM follows the machines, and what the rules refuse is never sent.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { TEXT_ASK_GIFT_REFUSED, askGiftMachine } from '../../../machines/ask-gift/ask-gift.machine';
import { TEXT_FILTER_ORDER, giftListMachine } from '../../../machines/gift-list/gift-list.machine';
import type { GiftCategory, GiftFilter, GiftItem } from '../../../machines/ports/gift.port';
import { talkMachine } from '../../../machines/talk/talk.machine';
import { ChatComposer } from './CallChat';
import { GiftPanel } from './GiftPanel';
import { HostGifts } from './HostGifts';

afterEach(cleanup);

const rose: GiftItem = { id: 1, name: 'Rose', price: 1, smallImg: '/g/rose.svg', icon: '/g/rose.svg' };
const ring: GiftItem = { id: 11, name: 'Ring', price: 520, smallImg: '/g/ring.svg', icon: '/g/ring.svg' };
const categories: GiftCategory[] = [{ id: 1, name: 'Popular', gifts: [rose, ring] }, { id: 3, name: 'Luxury', gifts: [ring] }];

function giftList() {
  const loads: GiftFilter[] = [];
  const list = createActor(giftListMachine.provide({
    actors: { load: fromPromise(async ({ input }) => { loads.push(input); return categories; }) },
  })).start();
  return { list, loads };
}

describe('[§2 §5 in-call chat] composer', () => {
  it('sends the text trimmed, ignores an empty one and refuses over 200 characters without cutting it', async () => {
    const chat = createActor(talkMachine, { input: { peer: 'yx-host', account: 'yx-user' } }).start();
    render(<ChatComposer chat={chat} />);
    const input = screen.getByPlaceholderText('Say hi...');
    const send = screen.getByRole('button', { name: 'Send' });
    fireEvent.change(input, { target: { value: '   ' } });
    expect(send).toHaveProperty('disabled', true);
    fireEvent.submit(input.closest('form')!);
    expect(chat.getSnapshot().context.messages).toHaveLength(0);

    fireEvent.change(input, { target: { value: 'x'.repeat(201) } });
    expect(screen.getByRole('alert').textContent).toContain('up to 200 characters');
    expect(send).toHaveProperty('disabled', true);
    fireEvent.submit(input.closest('form')!);
    expect(chat.getSnapshot().context.messages).toHaveLength(0);
    expect((input as HTMLInputElement).value).toHaveLength(201);

    fireEvent.change(input, { target: { value: '  hello there  ' } });
    fireEvent.click(send);
    await waitFor(() => expect(chat.getSnapshot().context.messages.map((m) => m.text)).toEqual(['hello there']));
    expect((input as HTMLInputElement).value).toBe('');
  });
});

describe('[§2 gift popup] titled Popular, categories, filter, quantity and Sure', () => {
  it('sends the chosen gift with a whole quantity from 1 to 99 only', async () => {
    const { list } = giftList();
    const sent: [GiftItem, number][] = [];
    render(<GiftPanel list={list} mode="send" open onClose={() => {}} onSure={(g, n) => sent.push([g, n])} />);
    const panel = await screen.findByRole('dialog', { name: 'Popular' });
    await within(panel).findByRole('button', { name: 'Rose, 1 diamonds' });
    expect(within(panel).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Popular', 'Luxury']);
    const sure = within(panel).getByRole('button', { name: 'Sure' });
    expect(sure).toHaveProperty('disabled', true);
    fireEvent.click(within(panel).getByRole('button', { name: 'Rose, 1 diamonds' }));
    const quantity = within(panel).getByLabelText('Quantity');
    for (const bad of ['100', '2.5', '0', '']) {
      fireEvent.change(quantity, { target: { value: bad } });
      expect(sure).toHaveProperty('disabled', true);
      expect((quantity as HTMLInputElement).value).toBe(bad);
    }
    fireEvent.change(quantity, { target: { value: '98' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'More' }));
    expect((quantity as HTMLInputElement).value).toBe('99');
    expect(within(panel).getByRole('button', { name: 'More' })).toHaveProperty('disabled', true);
    fireEvent.click(sure);
    expect(sent).toEqual([[rose, 99]]);
  });

  it('filters by an optional min and max price, and says why a filter cannot be used', async () => {
    const { list, loads } = giftList();
    render(<GiftPanel list={list} mode="ask" open onClose={() => {}} onSure={() => {}} />);
    const panel = await screen.findByRole('dialog', { name: 'Popular' });
    expect(within(panel).queryByLabelText('Quantity')).toBeNull();
    fireEvent.change(within(panel).getByLabelText('Min price'), { target: { value: '600' } });
    fireEvent.change(within(panel).getByLabelText('Max price'), { target: { value: '10' } });
    expect(within(panel).getByRole('alert').textContent).toBe(TEXT_FILTER_ORDER);
    expect(within(panel).getByRole('button', { name: 'Filter' })).toHaveProperty('disabled', true);
    fireEvent.change(within(panel).getByLabelText('Min price'), { target: { value: '' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(loads).toEqual([{}, { maxPrice: 10 }]));
  });
});

describe('[§2 §9 ask for a gift] cooldown and refusal', () => {
  it('asks for the chosen gift, shows the countdown from the deadline, and the refusal (16)', async () => {
    const { list } = giftList();
    const asked: unknown[] = [];
    const ask = createActor(askGiftMachine.provide({
      actors: { askFor: fromPromise(async ({ input }) => { asked.push(input); return { askId: 1 }; }) },
    }), { input: { peer: 'yx-user' } }).start();
    render(<HostGifts ask={ask} list={list} />);
    fireEvent.click(screen.getByRole('button', { name: 'Ask for a gift' }));
    const panel = await screen.findByRole('dialog', { name: 'Popular' });
    fireEvent.click(await within(panel).findByRole('button', { name: 'Ring, 520 diamonds' }));
    fireEvent.click(within(panel).getByRole('button', { name: 'Sure' }));
    await waitFor(() => expect(screen.getByRole('timer', { name: 'Ask again in' }).textContent).toMatch(/^Again in 1[45] s$/));
    expect(asked).toEqual([{ beAskYxAccid: 'yx-user', giftId: 11 }]);
    expect(screen.getByRole('button', { name: 'Ask for a gift' })).toHaveProperty('disabled', true);
    ask.send({ type: 'system.askGiftRefused', text: TEXT_ASK_GIFT_REFUSED });
    expect(await screen.findByText(TEXT_ASK_GIFT_REFUSED)).toBeTruthy();
  });
});
