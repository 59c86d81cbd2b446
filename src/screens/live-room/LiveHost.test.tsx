// @vitest-environment jsdom
/**
 * Screen tests of /liveRoom as the host over the hosting machine composed with the in-memory
 * live service, media channels and chat rooms (SPEC §2 /liveRoom; §4 Live state living /
 * liveCalling / waitingReturnLive, system messages 44 / 63 / 64, gag; §9 live call warning
 * 300 s): the DOM follows the snapshots and the host's taps reach the machine.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TEXT_MUTED, WhoBlock } from '../../../machines/live-chat/live-chat.types';
import type { LiveHostingRef } from '../../../machines/live-hosting/live-hosting.selectors';
import { selectViewingChat } from '../../../machines/live-viewing/live-viewing.selectors';
import { LIVE_CALL_WARNING_MS, TEXT_LIVE_CALL_WARNING } from '../../../machines/live-hosting/live-hosting.types';
import { getAnchorWishlist, liveGiftTask } from '../../api/contract/live';
import { ServicesContext } from '../../app/services';
import type { FakeServices } from '../../app/services.fake';
import { LiveHost } from './LiveHost';
import { ALICE, HOST, liveWorld, rose } from './liveWorld.testing';
import { LIVE_STATE_TEXT, TEXT_BOOSTING } from './texts';

afterEach(cleanup);

const task = (done: number) => ({ target: 1000, done, reward: 100, completed: done >= 1000 });

function mount(services: FakeServices, hosting: LiveHostingRef) {
  const calls = { ended: 0, left: 0 };
  render(
    <ServicesContext.Provider value={services}>
      <LiveHost hosting={hosting} onEnded={() => { calls.ended += 1; }} onLeave={() => { calls.left += 1; }} />
    </ServicesContext.Provider>,
  );
  return { calls, room: () => screen.getByTestId('live-room') };
}

async function onAir(w: ReturnType<typeof liveWorld>, handlers = {}) {
  const { actor, ports } = w.host();
  const services = w.services({ [liveGiftTask.path]: () => task(40), ...handlers });
  const mounted = mount(services, actor);
  await waitFor(() => expect(mounted.room().dataset.phase).toBe('onAir'));
  await waitFor(() => expect(mounted.room().dataset.liveState).toBe('living'));
  return { actor, ports, services, ...mounted };
}

describe('[§2 §4 /liveRoom host] going live and the live state', () => {
  it('shows going live, then the own camera, Live, and the live gift task', async () => {
    const w = liveWorld();
    const { actor } = w.host();
    const { room } = mount(w.services({ [liveGiftTask.path]: () => task(40) }), actor);
    expect(room().dataset.phase).toBe('starting');
    expect(screen.getByRole('status').textContent).toContain('Going live');
    await waitFor(() => expect(room().dataset.liveState).toBe('living'));
    expect(screen.getByLabelText('Your camera').dataset.hasStream).toBe('true');
    expect(screen.getByTestId('live-state').textContent).toBe(LIVE_STATE_TEXT.living);
    await waitFor(() => expect(screen.getByTestId('gift-task').textContent).toBe('Gift task 40/1000 · +100'));
    expect(within(screen.getByTestId('gift-task')).getByRole('progressbar', { name: 'Live gift task' }).getAttribute('aria-valuenow')).toBe('4');
  });

  it('[§4 63/64] shows boosting exposure while it is on', async () => {
    const w = liveWorld();
    const { actor, room } = await onAir(w);
    expect(room().dataset.boosting).toBe('false');
    act(() => actor.send({ type: 'system.boosting', on: true }));
    expect(room().dataset.boosting).toBe('true');
    expect(screen.getByTestId('boosting').textContent).toBe(TEXT_BOOSTING);
    act(() => actor.send({ type: 'system.boosting', on: false }));
    expect(screen.queryByTestId('boosting')).toBeNull();
  });

  it('switches private calls with the server, holding the switch while it changes', async () => {
    const w = liveWorld();
    await onAir(w);
    const toggle = screen.getByRole('switch', { name: 'Private calls' });
    expect(toggle).toHaveProperty('checked', true);
    fireEvent.click(toggle);
    expect(screen.getByTestId('private-call-switch').dataset.state).toBe('switching');
    expect(toggle).toHaveProperty('disabled', true);
    await waitFor(() => expect(screen.getByTestId('private-call-switch').dataset.state).toBe('off'));
    expect(toggle).toHaveProperty('checked', false);
    expect(w.lives.roomOf(HOST.userId)!.privateCallOpen).toBe(false);
  });

  it('[§4 §9] is in a private call, warned once at 300 s (the session toasts it over the call screen), then returns to live', async () => {
    const w = liveWorld();
    const { actor, room } = await onAir(w);
    const warnings: string[] = [];
    actor.on('live.warning', (e) => warnings.push(e.text));
    act(() => actor.send({ type: 'call.started' }));
    await waitFor(() => expect(room().dataset.liveState).toBe('liveCalling'));
    expect(screen.getByTestId('live-state').textContent).toBe(LIVE_STATE_TEXT.liveCalling);
    act(() => w.clock.increment(LIVE_CALL_WARNING_MS - 1));
    expect(warnings).toEqual([]);
    act(() => w.clock.increment(1));
    expect(warnings).toEqual([TEXT_LIVE_CALL_WARNING]);
    // Not shown a second time in the room.
    expect(screen.queryByText(TEXT_LIVE_CALL_WARNING)).toBeNull();
    act(() => actor.send({ type: 'call.ended' }));
    await waitFor(() => expect(room().dataset.liveState).toBe('living'));
  });
});

describe('[§4 §6 gag] the host gags and ungags a viewer from the audience', () => {
  it('mutes the viewer (whoBlock 2) and lets them chat again', async () => {
    const w = liveWorld();
    await onAir(w);
    const alice = w.viewer(ALICE);
    await waitFor(() => expect(screen.getByTestId('join-num').textContent).toBe('1'));
    fireEvent.click(screen.getByRole('button', { name: 'Audience, 1 joined' }));
    const sheet = await screen.findByRole('dialog', { name: 'Audience' });
    const chatOf = () => selectViewingChat(alice.actor.getSnapshot())!;
    await waitFor(() => expect(chatOf().getSnapshot().matches('ready')).toBe(true));
    fireEvent.click(await within(sheet).findByRole('button', { name: 'Gag Alice' }));
    await waitFor(() => expect(within(sheet).getByTestId('audience-member').dataset.gagged).toBe('true'));
    await waitFor(() => expect(chatOf().getSnapshot().context.whoBlock).toBe(WhoBlock.host));
    chatOf().send({ type: 'chat.send', text: 'hi' });
    expect(chatOf().getSnapshot().context.notice).toBe(TEXT_MUTED);
    fireEvent.click(within(sheet).getByRole('button', { name: 'Ungag Alice' }));
    await waitFor(() => expect(within(sheet).getByTestId('audience-member').dataset.gagged).toBe('false'));
    await waitFor(() => expect(chatOf().getSnapshot().context.whoBlock).toBe(WhoBlock.none));
  });
});

describe('[§2 §3] gifts in the host\'s room: wishlist progress and the gift task', () => {
  it('counts a viewer\'s gift toward the wish and loads the gift task again', async () => {
    const w = liveWorld();
    // The room is already open with a wish when the host's machine begins it (beginning again answers the same room).
    w.lives.begin(HOST.userId, { title: 'Evening', privateCallOpen: true });
    w.lives.roomOf(HOST.userId)!.wishlist = [{ giftId: rose.id, giftNum: 5, compelteGiftNum: 0, ratio: 0, completed: false }];
    let done = 40;
    const { services } = await onAir(w, {
      [liveGiftTask.path]: () => task(done),
      [getAnchorWishlist.path]: () => [{ giftId: 1, giftNum: 5, compelteGiftNum: 0, ratio: 0, completed: false, giftName: 'Rose', giftImg: '/g/rose.svg', giftPrice: 1 }],
    });
    await waitFor(() => expect(screen.getByTestId('wish-count').textContent).toBe('0/5'));
    expect(services.requests.find((r) => r.path === getAnchorWishlist.path)!.body).toEqual({});
    const alice = w.viewer(ALICE);
    await waitFor(() => expect(alice.actor.getSnapshot().matches('inRoom')).toBe(true));
    done = 42;
    alice.actor.getSnapshot().children.gifting!.send({ type: 'gift.send', giftId: rose.id, giftNum: 2 });
    await waitFor(() => expect(screen.getByTestId('wish-count').textContent).toBe('2/5'));
    expect((await screen.findByTestId('gift-card')).textContent).toContain('Alice sent Rose ×2');
    await waitFor(() => expect(screen.getByTestId('gift-task').textContent).toBe('Gift task 42/1000 · +100'));
  });
});

describe('[§2] End live', () => {
  it('asks first, ends once, and goes on to the results with the stats', async () => {
    const w = liveWorld();
    const { actor, room, calls } = await onAir(w);
    fireEvent.click(screen.getByRole('button', { name: 'End live' }));
    fireEvent.click(screen.getByRole('button', { name: 'Keep going' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(room().dataset.phase).toBe('onAir');
    fireEvent.click(screen.getByRole('button', { name: 'End live' }));
    const dialog = screen.getByRole('alertdialog', { name: 'End this live?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'End now' }));
    expect(room().dataset.phase).toBe('ending');
    expect(screen.getByRole('status').textContent).toContain('Ending the live');
    expect(screen.queryByRole('button', { name: 'End live' })).toBeNull();
    await waitFor(() => expect(room().dataset.phase).toBe('ended'));
    expect(actor.getSnapshot().output).toMatchObject({ title: 'Evening', code: 1, stats: { viewers: 0, gifts: 0, income: 0 } });
    fireEvent.click(screen.getByRole('button', { name: 'See results' }));
    expect(calls.ended).toBe(1);
  });

  it('shows the server\'s words when going live is refused', async () => {
    const w = liveWorld();
    const { actor } = w.host(undefined, ALICE);
    const { room, calls } = mount(w.services(), actor);
    await waitFor(() => expect(room().dataset.phase).toBe('failed'));
    expect(screen.getByRole('alert').textContent).toBe('Only hosts can go live.');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(calls.left).toBe(1);
  });
});
