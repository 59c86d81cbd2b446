// @vitest-environment jsdom
/**
 * Screen tests of /liveSetting over the session's live rooms composed with the in-memory live
 * service (SPEC §2 /liveSetting: title, cover, private-call switch, wishlist, Go live; §8 'set
 * wishlist is failed!'; a refused go-live shows the server's words).
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useSelector } from '@xstate/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveRoom } from '../../../machines/ports/live.port';
import { LIVE_TITLE_MAX, TEXT_SET_WISHLIST_FAILED, getAnchorWishlist, setAnchorWishlist } from '../../api/contract/live';
import { getGiftList } from '../../api/contract/gift';
import { ServicesContext } from '../../app/services';
import { refusal } from '../../app/services.fake';
import type { FakeHandler, FakeServices } from '../../app/services.fake';
import { selectLastLive, selectLiveHosting } from '../live-room/liveRefs';
import type { LiveRoomsRef } from '../live-room/liveRefs';
import { ALICE, HOST, liveWorld } from '../live-room/liveWorld.testing';
import { LiveSettingForm } from './LiveSettingForm';
import { TEXT_WISH_INVALID, TEXT_WISHLIST_SAVED } from './WishlistEditor';

afterEach(cleanup);

const wish = (giftId: number, giftName: string, giftNum: number) =>
  ({ giftId, giftNum, compelteGiftNum: 0, ratio: 0, completed: false, giftName, giftImg: `/g/${giftName}.svg`, giftPrice: 1 });
const giftList = {
  giftList: [{ categoryId: 1, categoryName: 'Popular', gifts: [
    { id: 1, name: 'Rose', giftSmallImg: '/g/rose.svg', giftPrice: 1, giftIcon: '/g/rose.svg' },
    { id: 11, name: 'Ring', giftSmallImg: '/g/ring.svg', giftPrice: 520, giftIcon: '/g/ring.svg' },
    { id: 12, name: 'Car', giftSmallImg: '/g/car.svg', giftPrice: 900, giftIcon: '/g/car.svg' },
  ] }],
};

function Setting({ live, opened, asked }: { live: LiveRoomsRef; opened: () => void; asked: () => void }) {
  const hosting = useSelector(live, selectLiveHosting);
  const lastLive = useSelector(live, selectLastLive);
  // The session hands live.begin to its live rooms as is.
  return <LiveSettingForm hosting={hosting} lastLive={lastLive} onGoLive={(setting) => { asked(); live.send({ type: 'live.begin', setting }); }} onOpenRoom={opened} />;
}

function mount(services: FakeServices, live: LiveRoomsRef) {
  const calls = { opened: 0, asked: 0 };
  render(
    <ServicesContext.Provider value={services}>
      <Setting live={live} opened={() => { calls.opened += 1; }} asked={() => { calls.asked += 1; }} />
    </ServicesContext.Provider>,
  );
  return calls;
}

const handlers = (over: Record<string, FakeHandler> = {}): Record<string, FakeHandler> => ({
  [getGiftList.path]: () => giftList,
  [getAnchorWishlist.path]: () => [wish(1, 'Rose', 3)],
  [setAnchorWishlist.path]: (body) => (body as { wishlist: { giftId: number; giftNum: number }[] }).wishlist
    .map((w) => wish(w.giftId, giftList.giftList[0]!.gifts.find((g) => g.id === w.giftId)!.name, w.giftNum)),
  ...over,
});

describe('[§2 /liveSetting] Go live', () => {
  it('asks to begin once however often it is tapped, with the title, cover and private-call switch', async () => {
    const w = liveWorld();
    const { actor, ports } = w.rooms(HOST, 'manual');
    const calls = mount(w.services(handlers()), actor);
    const title = screen.getByRole('textbox', { name: 'Title' });
    expect(title.getAttribute('maxlength')).toBe(String(LIVE_TITLE_MAX));
    fireEvent.change(title, { target: { value: '  Evening chat  ' } });
    expect(screen.getByText(`16/${LIVE_TITLE_MAX}`)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Cover (optional)'), { target: { files: [new File(['x'], 'c.png', { type: 'image/png' })] } });
    expect((await screen.findByRole('img', { name: 'Cover' })).getAttribute('src')).toMatch(/^\/media\/0+\.png$/);
    fireEvent.click(screen.getByRole('switch', { name: 'Private calls' }));
    const go = screen.getByRole('button', { name: 'Go live' });
    fireEvent.click(go);
    fireEvent.click(go);
    expect(screen.getByRole('button', { name: 'Going live…' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Going live…' }));
    expect(calls.asked).toBe(1);
    await waitFor(() => expect(ports.api.pending.count('checkPermission')).toBe(1));
    const hosting = selectLiveHosting(actor.getSnapshot())!;
    expect(hosting.getSnapshot().context.setting).toEqual({ title: 'Evening chat', cover: expect.stringMatching(/^\/media\//), privateCallOpen: false });
    await act(async () => ports.api.pending.next('checkPermission').resolve(undefined));
    const room = w.lives.begin(HOST.userId, hosting.getSnapshot().context.setting);
    await act(async () => ports.api.pending.next<LiveRoom>('begin').resolve(room));
    const open = await screen.findByRole('button', { name: 'Open live room' });
    expect(ports.api.pending.count('begin')).toBe(1);
    fireEvent.click(open);
    expect(calls.opened).toBe(1);
  });

  it('shows the server\'s words when going live is refused, and may try again', async () => {
    const w = liveWorld();
    const { actor } = w.rooms(ALICE);
    const calls = mount(w.services(handlers()), actor);
    fireEvent.click(screen.getByRole('button', { name: 'Go live' }));
    expect((await screen.findByTestId('go-live-failure')).textContent).toBe('Only hosts can go live.');
    fireEvent.click(screen.getByRole('button', { name: 'Go live' }));
    expect(calls.asked).toBe(2);
    await waitFor(() => expect(screen.getByTestId('go-live-failure').textContent).toBe('Only hosts can go live.'));
  });
});

describe('[§2 §8 /liveSetting] the wishlist', () => {
  it('loads the wishes, adds up to 3 different gifts and saves them', async () => {
    const w = liveWorld();
    const services = w.services(handlers());
    mount(services, w.rooms().actor);
    const editor = await screen.findByRole('form', { name: 'Wishlist' });
    expect(within(editor).getByRole('combobox', { name: 'Wish 1 gift' })).toHaveProperty('value', '1');
    expect(within(editor).getByRole('textbox', { name: 'Wish 1 count' })).toHaveProperty('value', '3');
    const add = within(editor).getByRole('button', { name: 'Add a wish' });
    fireEvent.click(add);
    fireEvent.change(within(editor).getByRole('combobox', { name: 'Wish 2 gift' }), { target: { value: '1' } });
    expect(within(editor).getByRole('alert').textContent).toBe(TEXT_WISH_INVALID);
    expect(within(editor).getByRole('button', { name: 'Save wishlist' })).toHaveProperty('disabled', true);
    fireEvent.change(within(editor).getByRole('combobox', { name: 'Wish 2 gift' }), { target: { value: '11' } });
    fireEvent.change(within(editor).getByRole('textbox', { name: 'Wish 2 count' }), { target: { value: '2' } });
    fireEvent.click(add);
    expect(add).toHaveProperty('disabled', true);
    fireEvent.click(within(editor).getByRole('button', { name: 'Remove wish 3' }));
    expect(add).toHaveProperty('disabled', false);
    fireEvent.click(within(editor).getByRole('button', { name: 'Save wishlist' }));
    expect(await within(editor).findByText(TEXT_WISHLIST_SAVED)).toBeTruthy();
    expect(services.requests.filter((r) => r.path === setAnchorWishlist.path).map((r) => r.body))
      .toEqual([{ wishlist: [{ giftId: 1, giftNum: 3 }, { giftId: 11, giftNum: 2 }] }]);
  });

  it('[§8] says \'set wishlist is failed!\' when the save is refused', async () => {
    const w = liveWorld();
    mount(w.services(handlers({ [setAnchorWishlist.path]: () => { throw refusal('wishlist refused by the server'); } })), w.rooms().actor);
    const editor = await screen.findByRole('form', { name: 'Wishlist' });
    fireEvent.change(within(editor).getByRole('textbox', { name: 'Wish 1 count' }), { target: { value: '1000' } });
    expect(within(editor).getByRole('button', { name: 'Save wishlist' })).toHaveProperty('disabled', true);
    fireEvent.change(within(editor).getByRole('textbox', { name: 'Wish 1 count' }), { target: { value: '5' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Save wishlist' }));
    expect((await within(editor).findByRole('alert')).textContent).toBe(TEXT_SET_WISHLIST_FAILED);
    expect(TEXT_SET_WISHLIST_FAILED).toBe('set wishlist is failed!');
  });
});
