// @vitest-environment jsdom
/**
 * The live routes in the app: the root actor composed with the fake session port, auto-mode
 * realtime fakes and the in-memory live service (SPEC §2 /liveSetting → /liveRoom → /liveEnds
 * for a host; /liveRoom?anchorId=… for a viewer, in StrictMode as the app runs): the screens
 * find the session's live rooms and send its events.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeChatroomPort } from '../../../machines/ports/chatroom.fake';
import { FakeLiveApi, FakeLiveMedia } from '../../../machines/ports/live.fake';
import { FakeSessionPort, sampleAuth, sampleProfile } from '../../../machines/ports/session.fake';
import { autoRealtime } from '../../../machines/testing/realtime';
import { live } from '../../api/contract';
import { renderApp, signedInHandlers } from '../../app/app.testing';
import { screens } from '../../app/screens';
import { ALICE, HOST, liveWorld } from './liveWorld.testing';
import type { Person } from './liveWorld.testing';

afterEach(cleanup);
window.scrollTo = () => {};

// The code of the screens these tests visit and of the lives' machines, loaded (and transformed)
// once ahead: the tests' waits are then for the app's own work, not for the first load of a module.
beforeAll(async () => {
  const visited = ['/liveRoom', '/liveSetting', '/liveEnds', '/newsRestricted', '/'];
  await Promise.all([
    ...screens.filter((s) => visited.includes(s.path)).map((s) => s.load()),
    import('../../../machines/session/per-use.actors'),
  ]);
}, 60_000);

function mountApp(w: ReturnType<typeof liveWorld>, person: Person, path: string) {
  const profile = sampleProfile({
    userId: person.userId, userType: person.isHost ? 2 : 1, yxAccid: person.account, imToken: `im-${person.account}`, nickname: person.nick,
    userLevel: Number(person.ext?.userLevel ?? 0),
  });
  const port = new FakeSessionPort('auto', { [person.account]: profile });
  const realtime = autoRealtime(person.account, `im-${person.account}`);
  const media = new FakeLiveMedia(w.channels);
  const chatroom = new FakeChatroomPort(w.chatrooms);
  const ports = { ...realtime.ports, liveApi: new FakeLiveApi(w.lives, person.userId), liveMedia: media, chatroom };
  const services = w.services({
    ...signedInHandlers,
    [live.getAnchorWishlist.path]: () => [],
    [live.liveGiftTask.path]: () => ({ target: 1000, done: 0, reward: 100, completed: false }),
    '/api/gift/v2/getGiftList': () => ({ giftList: [] }),
  });
  const { app, router } = renderApp({
    ports: { session: port, realtime: ports }, openParams: sampleAuth({ token: `token-${person.account}` }), path, services, strict: true,
  });
  return { app, router, media, chatroom };
}

describe('[§2 /liveRoom] a viewer from the live list', () => {
  it('watches ?anchorId\'s room (once, in StrictMode) and leaves it when the screen goes', async () => {
    const w = liveWorld();
    const { room, chat } = await w.liveHost();
    const { router, media, chatroom } = mountApp(w, ALICE, `/liveRoom?anchorId=${HOST.userId}`);
    await screen.findByTestId('live-room', {}, { timeout: 5000 });
    await waitFor(() => expect(screen.getByTestId('live-room').dataset.frontStatus).toBe('2'), { timeout: 3000 });
    await waitFor(() => expect(screen.getByTestId('live-room').dataset.video).toBe('playing'));
    await waitFor(async () => expect((await chat.members(room.yxRoomId, 500)).map((m) => m.account)).toContain(ALICE.account));
    expect(w.lives.roomOf(HOST.userId)!.joinNum).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/newsRestricted'));
    await waitFor(() => expect(chatroom.entered).toEqual([]));
    expect(media.channel).toBeNull();
    expect((await chat.members(room.yxRoomId, 500)).map((m) => m.account)).toEqual([HOST.account]);
  });

  it('says there is no room to show without a host id', async () => {
    mountApp(liveWorld(), ALICE, '/liveRoom?anchorId=abc');
    expect((await screen.findByTestId('live-room-none')).textContent).toContain('There is no live room to show.');
  });
});

describe('[§2 /liveSetting → /liveRoom → /liveEnds] a host\'s live', () => {
  it('goes live, is taken to the room, ends the live and sees its figures', async () => {
    const w = liveWorld();
    const { router } = mountApp(w, HOST, '/liveSetting');
    fireEvent.change(await screen.findByRole('textbox', { name: 'Title' }, { timeout: 5000 }), { target: { value: 'Evening' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go live' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/liveRoom'), { timeout: 3000 });
    expect((await screen.findByTestId('live-room')).dataset.role).toBe('host');
    await waitFor(() => expect(screen.getByTestId('live-room').dataset.liveState).toBe('living'));
    w.viewer(ALICE);
    await waitFor(() => expect(screen.getByTestId('join-num').textContent).toBe('1'));
    fireEvent.click(screen.getByRole('button', { name: 'End live' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'End now' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/liveEnds'), { timeout: 3000 });
    const ends = await screen.findByTestId('live-ends', {}, { timeout: 5000 });
    expect(ends.dataset.source).toBe('summary');
    expect(within(ends).getByRole('heading', { name: 'Evening' })).toBeTruthy();
    expect(within(ends).getByTestId('live-ends-viewers').textContent).toBe('1');
    fireEvent.click(screen.getByRole('button', { name: 'Back to home' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
