// @vitest-environment jsdom
/**
 * Screen tests of /liveRoom as a viewer over the live machines composed with the in-memory
 * live service, media channels and chat rooms (SPEC §2 /liveRoom; §3 Live chat record; §4
 * viewing front status, gag, gift queue; §6 highlights above level 0; §9 history 5,
 * highlight 2 s, gift hide 5 s): the DOM follows the snapshots, and what the rules refuse is
 * never sent.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TEXT_MUTED, MAX_CHAT_TEXT } from '../../../machines/live-chat/live-chat.types';
import type { LiveViewingRef } from '../../../machines/live-viewing/live-viewing.selectors';
import { GIFT_SHOW_MS } from '../../../machines/ports/gift.port';
import { FAKE_TEXT_NO_ROOM } from '../../../machines/ports/live.fake';
import { people } from '../../api/contract';
import { sendRank } from '../../api/contract/live';
import { ServicesContext } from '../../app/services';
import type { FakeServices } from '../../app/services.fake';
import { LiveViewer } from './LiveViewer';
import { ALICE, BOB, HOST, liveWorld } from './liveWorld.testing';
import { TEXT_HOST_IN_PRIVATE_CALL, TEXT_LIVE_ENDED } from './texts';

afterEach(cleanup);

function mount(services: FakeServices, viewing: LiveViewingRef) {
  const left: number[] = [];
  render(
    <ServicesContext.Provider value={services}>
      <LiveViewer viewing={viewing} onLeave={() => left.push(1)} />
    </ServicesContext.Provider>,
  );
  return { left, room: () => screen.getByTestId('live-room') };
}

const lines = () => within(screen.getByRole('list', { name: 'Live chat' })).queryAllByTestId('live-chat-line');

describe('[§2 §4 /liveRoom viewer] front status and the host\'s video', () => {
  it('shows loading, then live with the host\'s video; the last 5 lines on entry, with badges and gift lines', async () => {
    const w = liveWorld();
    const { room, chat } = await w.liveHost();
    for (let i = 1; i <= 6; i += 1) await chat.send(room.yxRoomId, { text: `line ${i}`, attach: { isVip: i === 6, isNewUser: true, userLevel: 7 } });
    w.chatrooms.post(room.yxRoomId, { from: BOB.account, fromNick: 'Bob', attach: { giftId: 1, giftName: 'Rose', giftImg: '/g/rose.svg', giftNum: 3 } });
    const { actor } = w.viewer(ALICE);
    const { room: root } = mount(w.services(), actor);
    expect(root().dataset.frontStatus).toBe('1');
    expect(screen.getByRole('status').textContent).toContain('Entering the live room');
    await waitFor(() => expect(root().dataset.frontStatus).toBe('2'));
    expect(root().dataset.video).toBe('playing');
    expect(screen.getByLabelText('Sofia’s live video').dataset.hasStream).toBe('true');
    await waitFor(() => expect(lines()).toHaveLength(5));
    expect(lines().map((l) => l.textContent)).toEqual(['SofiaNewLv7line 3', 'SofiaNewLv7line 4', 'SofiaNewLv7line 5', 'SofiaVIPNewLv7line 6', 'Bobsent  ×3']);
    const gift = lines()[4]!;
    expect(gift.dataset.kind).toBe('gift');
    expect(within(gift).getByRole('img', { name: 'Rose' }).getAttribute('src')).toBe('/g/rose.svg');
    expect(within(gift).getByTestId('gift-num').textContent).toBe(' ×3');
  });

  it('shows the host in a private call while the host is out of the channel, and live again after', async () => {
    const w = liveWorld();
    const { room, media } = await w.liveHost();
    const { room: root } = mount(w.services(), w.viewer(ALICE).actor);
    await waitFor(() => expect(root().dataset.frontStatus).toBe('2'));
    expect(screen.queryByTestId('host-in-private-call')).toBeNull();
    await act(() => media.leave());
    await waitFor(() => expect(root().dataset.frontStatus).toBe('5'));
    expect(screen.getByTestId('host-in-private-call').textContent).toContain(TEXT_HOST_IN_PRIVATE_CALL);
    expect(screen.queryByRole('button', { name: 'Private call' })).toBeNull();
    await act(() => media.publish(room.agoraChannelId, HOST.account));
    await waitFor(() => expect(root().dataset.frontStatus).toBe('2'));
    expect(screen.queryByTestId('host-in-private-call')).toBeNull();
  });

  it('shows the live end with a way out when the room ends', async () => {
    const w = liveWorld();
    await w.liveHost();
    const { actor } = w.viewer(ALICE);
    const { room: root, left } = mount(w.services(), actor);
    await waitFor(() => expect(root().dataset.frontStatus).toBe('2'));
    act(() => w.lives.close(HOST.userId));
    await waitFor(() => expect(root().dataset.frontStatus).toBe('3'));
    expect(screen.getByText(TEXT_LIVE_ENDED)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(left).toEqual([1]);
  });

  it('shows the server\'s words when joining is refused, and tries again', async () => {
    const w = liveWorld();
    const { room: root } = mount(w.services(), w.viewer(ALICE).actor);
    // The in-memory service's refusal (live.fake.ts FAKE_TEXT_NO_ROOM), shown as it says it.
    const refusal = FAKE_TEXT_NO_ROOM;
    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
    expect(root().dataset.frontStatus).toBe('1');
    await w.liveHost();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(root().dataset.frontStatus).toBe('2'));
  });
});

describe('[§2 §5 live chat] the composer', () => {
  it('sends trimmed lines, ignores empty ones and refuses one over the limit without cutting it', async () => {
    const w = liveWorld();
    const { room, chat } = await w.liveHost();
    const heard: string[] = [];
    chat.subscribe(room.yxRoomId, (e) => { if (e.type === 'message' && e.message.text) heard.push(e.message.text); });
    mount(w.services(), w.viewer(ALICE).actor);
    const input = await screen.findByRole('textbox', { name: 'Chat message' });
    const send = screen.getByRole('button', { name: 'Send' });
    await waitFor(() => expect(input.getAttribute('placeholder')).toBe('Say hi...'));
    fireEvent.change(input, { target: { value: '    ' } });
    expect(send).toHaveProperty('disabled', true);
    fireEvent.submit(input.closest('form')!);
    fireEvent.change(input, { target: { value: 'x'.repeat(MAX_CHAT_TEXT + 1) } });
    expect(screen.getByRole('alert').textContent).toContain(`up to ${MAX_CHAT_TEXT} characters`);
    fireEvent.submit(input.closest('form')!);
    expect((input as HTMLInputElement).value).toHaveLength(MAX_CHAT_TEXT + 1);
    fireEvent.change(input, { target: { value: '  hello host  ' } });
    fireEvent.click(send);
    await waitFor(() => expect(heard).toEqual(['hello host']));
    expect((input as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(lines().map((l) => l.textContent)).toEqual(['AliceVIPLv3hello host']));
  });

  it('[§4 gag] a gagged viewer sees why and cannot send; ungagged, sends again', async () => {
    const w = liveWorld();
    const { room, chat } = await w.liveHost();
    mount(w.services(), w.viewer(ALICE).actor);
    const input = await screen.findByRole('textbox', { name: 'Chat message' });
    await waitFor(() => expect(input.getAttribute('placeholder')).toBe('Say hi...'));
    await act(() => chat.setGagged(room.yxRoomId, ALICE.account, true));
    await waitFor(() => expect(input).toHaveProperty('disabled', true));
    expect(screen.getByTestId('live-chat-notice').textContent).toBe(TEXT_MUTED);
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
    await act(() => chat.setGagged(room.yxRoomId, ALICE.account, false));
    await waitFor(() => expect(input).toHaveProperty('disabled', false));
    expect(screen.queryByTestId('live-chat-notice')).toBeNull();
  });
});

describe('[§4 §6 §9] audience, entering-room highlights', () => {
  it('counts joins, lists the audience, and shows a highlight only above level 0, for 2 s', async () => {
    const w = liveWorld();
    await w.liveHost();
    mount(w.services(), w.viewer(ALICE).actor);
    await waitFor(() => expect(screen.getByTestId('join-num').textContent).toBe('1'));
    w.viewer(BOB);
    await waitFor(() => expect(screen.getByTestId('join-num').textContent).toBe('2'));
    expect(screen.queryAllByTestId('enter-highlight')).toHaveLength(0);
    const carol = { userId: 4, account: 'yx-carol', nick: 'Carol', isHost: false, ext: { userLevel: 5, isVip: true } };
    w.lives.register({ userId: 4, account: carol.account, nickname: carol.nick, isHost: false });
    w.chatrooms.register(carol.account, `im-${carol.account}`);
    w.viewer(carol);
    const shown = await screen.findByTestId('enter-highlight');
    expect(shown.textContent).toBe('VIPLv5Carol entered the room');
    act(() => w.clock.increment(1_999));
    expect(screen.queryAllByTestId('enter-highlight')).toHaveLength(1);
    act(() => w.clock.increment(1));
    expect(screen.queryAllByTestId('enter-highlight')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Audience, 3 joined' }));
    const sheet = await screen.findByRole('dialog', { name: 'Audience' });
    // The host is not one of the audience; the viewer sees the others.
    expect(within(sheet).getAllByTestId('audience-member').map((m) => m.dataset.account)).toEqual(['yx-bob', 'yx-carol']);
    expect(within(sheet).getByTestId('audience-count').textContent).toBe('2 watching now · 3 joined');
    expect(within(sheet).queryByRole('button', { name: /^Gag/ })).toBeNull();
  });
});

describe('[§2 §4 §9 gifts] the gift panel, the one-at-a-time animation and the wishlist', () => {
  it('sends the chosen gift and quantity in the room; the line, the card (5 s) and the wish follow', async () => {
    const w = liveWorld();
    const { room } = await w.liveHost();
    w.lives.roomOf(HOST.userId)!.wishlist = [{ giftId: 1, giftNum: 4, compelteGiftNum: 1, ratio: 0.25, completed: false }];
    const services = w.services({
      '/api/agora/live/getAnchorWishlist': () => [{ giftId: 1, giftNum: 4, compelteGiftNum: 1, ratio: 0.25, completed: false, giftName: 'Rose', giftImg: '/g/rose.svg', giftPrice: 1 }],
    });
    mount(services, w.viewer(ALICE).actor);
    const wish = await screen.findByTestId('wish');
    expect(within(wish).getByTestId('wish-count').textContent).toBe('1/4');
    expect(within(wish).getByRole('progressbar', { name: 'Rose wish' }).getAttribute('aria-valuenow')).toBe('25');
    fireEvent.click(screen.getByRole('button', { name: 'Gift' }));
    const panel = await screen.findByRole('dialog', { name: 'Popular' });
    fireEvent.click(await within(panel).findByRole('button', { name: 'Rose, 1 diamonds' }));
    fireEvent.change(within(panel).getByLabelText('Quantity'), { target: { value: '3' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Sure' }));
    await waitFor(() => expect(w.sent).toEqual([{
      yxRoomId: room.yxRoomId, toUserId: HOST.userId, giftId: 1, giftNum: 3, idempotencyKey: expect.any(String),
    }]));
    const card = await screen.findByTestId('gift-card');
    // The status reads the gift alone; closing it is a labelled button of its own.
    expect(within(card).getByRole('status').textContent).toBe('Alice sent Rose ×3');
    expect(within(card).getByRole('button', { name: 'Dismiss gift' })).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('wish')).getByTestId('wish-count').textContent).toBe('4/4'));
    expect(screen.getByTestId('wish').dataset.completed).toBe('true');
    expect(lines().at(-1)!.dataset.kind).toBe('gift');
    act(() => w.clock.increment(GIFT_SHOW_MS));
    expect(screen.queryByTestId('gift-card')).toBeNull();
  });

  it('plays gifts one at a time, in order, each for its own 5 s', async () => {
    const w = liveWorld();
    const { room } = await w.liveHost();
    mount(w.services(), w.viewer(ALICE).actor);
    await screen.findByRole('textbox', { name: 'Chat message' });
    await waitFor(() => expect(screen.getByTestId('live-room').dataset.frontStatus).toBe('2'));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Live chat' }).closest('[data-chat-phase]')!.getAttribute('data-chat-phase')).toBe('ready'));
    act(() => {
      for (const n of [1, 2, 3]) w.chatrooms.post(room.yxRoomId, { from: BOB.account, fromNick: 'Bob', attach: { giftId: 11, giftName: 'Ring', giftImg: '/g/ring.svg', giftNum: n } });
    });
    const card = () => screen.getByTestId('gift-card').textContent;
    await waitFor(() => expect(card()).toContain('Bob sent Ring ×1'));
    expect(card()).toContain('2 more');
    act(() => w.clock.increment(GIFT_SHOW_MS));
    expect(card()).toContain('Bob sent Ring ×2');
    act(() => w.clock.increment(GIFT_SHOW_MS));
    expect(card()).toContain('Bob sent Ring ×3');
    act(() => w.clock.increment(GIFT_SHOW_MS));
    expect(screen.queryByTestId('gift-card')).toBeNull();
  });
});

describe('[§2 /liveRoom] follow, send rank and a private call', () => {
  it('follows the host, shows the send rank, and asks for a private call while the host takes them', async () => {
    const w = liveWorld();
    await w.liveHost({ title: 'Evening', privateCallOpen: true });
    const services = w.services({
      [people.followUser.path]: (body) => ({ userId: 1, yxAccid: 'yx-host', followed: (body as { follow: boolean }).follow, followerCount: 1 }),
      [sendRank.path]: () => [{ rank: 1, userId: 3, yxAccid: 'yx-bob', nickname: 'Bob', icon: '/a/bob.png', userLevel: 2, isVip: false, total: 520 }],
    });
    const { actor } = w.viewer(ALICE);
    const asked: unknown[] = [];
    actor.on('live.callHost', (e) => asked.push(e));
    mount(services, actor);
    await waitFor(() => expect(screen.getByTestId('live-room').dataset.frontStatus).toBe('2'));
    // The host's profile cannot be read here: the button starts as Follow once that is known.
    const follow = screen.getByRole('button', { name: 'Follow' });
    await waitFor(() => expect((follow as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(follow);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Following' }).getAttribute('aria-pressed')).toBe('true'));
    expect(services.requests.filter((r) => r.path === people.followUser.path).map((r) => r.body)).toEqual([{ beFollowUserId: 1, follow: true }]);

    fireEvent.click(screen.getByRole('button', { name: 'Send rank' }));
    const sheet = await screen.findByRole('dialog', { name: 'Send rank' });
    expect((await within(sheet).findByTestId('send-rank-row')).textContent).toContain('Bob');
    expect(services.requests.find((r) => r.path === sendRank.path)!.body).toEqual({ searchValue: 1 });

    fireEvent.click(screen.getByRole('button', { name: 'Private call' }));
    expect(asked).toEqual([{ type: 'live.callHost', peer: { account: 'yx-host', userId: 1, nickname: 'Sofia' }, online: true }]);
  });

  it('starts as Following when the viewer already follows the host, and a tap unfollows', async () => {
    const w = liveWorld();
    await w.liveHost({ title: 'Evening', privateCallOpen: true });
    const services = w.services({
      [people.getUserDetail.path]: () => ({
        userId: 1, yxAccid: 'yx-host', nickname: 'Sofia', icon: '/a/sofia.png', userType: 2, userLevel: 3, levelName: 'Lv.3',
        age: 24, countryId: 2, countryName: 'Philippines', countryCode: 'PH', isVip: false, onlineGroupStatus: 1,
        isFollowed: true, videoPrice: 40, tags: [], picList: [], isBlockUser: false, followerCount: 9, followingCount: 0, living: true,
      }),
      [people.followUser.path]: (body) => ({ userId: 1, yxAccid: 'yx-host', followed: (body as { follow: boolean }).follow, followerCount: 8 }),
    });
    const { actor } = w.viewer(ALICE);
    mount(services, actor);
    const following = await screen.findByRole('button', { name: 'Following' });
    expect(following.getAttribute('aria-pressed')).toBe('true');
    expect(services.requests.find((r) => r.path === people.getUserDetail.path)!.body).toEqual({ userId: 1 });
    fireEvent.click(following);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Follow' }).getAttribute('aria-pressed')).toBe('false'));
    expect(services.requests.filter((r) => r.path === people.followUser.path).map((r) => r.body)).toEqual([{ beFollowUserId: 1, follow: false }]);
  });

  it('offers no private call while the host does not take them', async () => {
    const w = liveWorld();
    await w.liveHost({ title: 'Evening', privateCallOpen: false });
    mount(w.services(), w.viewer(ALICE).actor);
    await waitFor(() => expect(screen.getByTestId('live-room').dataset.frontStatus).toBe('2'));
    expect(screen.queryByRole('button', { name: 'Private call' })).toBeNull();
  });
});
