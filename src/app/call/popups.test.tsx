// @vitest-environment jsdom
/**
 * The call screen's popups (the gift panel, the chat history) are mounted when first opened,
 * not with the connected call: a closed antd popup still costs its render and animation set-up
 * just as the call's media starts. Once opened they stay mounted, so that they animate closing.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { askGiftMachine } from '../../../machines/ask-gift/ask-gift.machine';
import { giftListMachine } from '../../../machines/gift-list/gift-list.machine';
import type { GiftCategory } from '../../../machines/ports/gift.port';
import { HostGifts } from './HostGifts';

const popups = vi.hoisted(() => ({ renders: [] as boolean[] }));
vi.mock('../../ui/antd', () => ({
  Popup: ({ visible, children }: { visible: boolean; children: ReactNode }) => {
    popups.renders.push(visible);
    return visible ? <div data-testid="popup">{children}</div> : null;
  },
}));

afterEach(cleanup);

describe('[§2] the call screen\'s popups', () => {
  it('are not mounted until first opened, and stay mounted once closed', async () => {
    const list = createActor(giftListMachine.provide({ actors: { load: fromPromise(async (): Promise<GiftCategory[]> => []) } })).start();
    const ask = createActor(askGiftMachine, { input: { peer: 'yx-user' } }).start();
    render(<HostGifts ask={ask} list={list} />);
    expect(popups.renders).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Ask for a gift' }));
    expect(popups.renders.at(-1)).toBe(true);
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    expect(popups.renders.at(-1)).toBe(false);
    expect(screen.queryByTestId('popup')).toBeNull();
  });
});
