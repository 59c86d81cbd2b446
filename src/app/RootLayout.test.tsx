// @vitest-environment jsdom
/**
 * Screen test: the root actor composed with a fake session port; the DOM follows its
 * snapshots (tab lists per mode, the News badge fed by the unread count, the login screen
 * when signed out).
 */
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeImPort } from '../../machines/ports/im.fake';
import { FakeSessionPort, sampleAuth, sampleProfile } from '../../machines/ports/session.fake';
import { autoRealtime } from '../../machines/testing/realtime';
import type { StoredAuth } from '../../machines/ports/session.port';
import { renderApp, signedInHandlers } from './app.testing';
import { fakeServices } from './services.fake';

afterEach(cleanup);
// jsdom has no layout: the router's scroll-to-top on navigation has nothing to do here.
window.scrollTo = () => {};

function mount(openParams: StoredAuth | null, path: string) {
  const port = new FakeSessionPort('auto', {
    host: sampleProfile({ userType: 2, nickname: 'Hostess' }),
    user: sampleProfile({ userType: 1, nickname: 'Viewer' }),
  });
  const realtime = autoRealtime('yx1', 'im-token');
  const { app, router } = renderApp({ ports: { session: port, realtime: realtime.ports }, openParams, path, services });
  return { app, router, port, network: realtime.network };
}

/** What the signed-in screens ask the API at once: the app settings and an empty home. */
const services = fakeServices(signedInHandlers);

const mainNav = () => screen.findByRole('navigation', { name: 'Main' });

describe('[§2 Tab bars] root layout', () => {
  it('gives a host the four tabs and shows the IM unread count on News', async () => {
    const { network } = mount(sampleAuth({ token: 'token-host' }), '/');
    const nav = await mainNav();
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['List', 'News', 'Circle', 'Mine']);
    expect(within(nav).queryByTestId('unread-badge')).toBeNull();

    // Messages from a peer, through the IM connection of the session.
    network.register('peer', 'peer-token');
    const peer = new FakeImPort(network);
    await peer.login('peer', 'peer-token');
    await waitFor(() => expect(network.isOnlineAccount('yx1')).toBe(true));
    await act(async () => { for (let i = 0; i < 3; i++) await peer.sendText('yx1', `hi ${i}`); });
    expect(await within(nav).findByRole('link', { name: 'News, 3 unread' })).toBeTruthy();
    expect(within(nav).getByTestId('unread-badge').textContent).toBe('3');

    await act(async () => { for (let i = 0; i < 120; i++) await peer.sendText('yx1', `more ${i}`); });
    expect(within(nav).getByTestId('unread-badge').textContent).toBe('99+');
  });

  it('gives a non-host the two restricted tabs on /newsRestricted', async () => {
    const { router } = mount(sampleAuth({ token: 'token-user' }), '/');
    const nav = await mainNav();
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['News', 'Mine']);
    expect(router.state.location.pathname).toBe('/newsRestricted');
  });

  it('shows the login screen and no tab bar when opened without a session', async () => {
    mount(null, '/login');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it('clears the session and goes to /login from a protected path', async () => {
    const { router, port } = mount(null, '/wallet');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(port.forgetCount).toBe(1);
  });
});
