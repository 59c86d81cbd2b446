// @vitest-environment jsdom
/**
 * Screen test of the base-config gate (SPEC §7 base config "retried up to 3 times", §8 "Base
 * config failure throws after 3 retries"): the app shows while the settings load and retry; a
 * server that keeps failing ends on the error screen, whose Retry loads them.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { config, home } from '../api/contract';
import { ApiError } from '../api/outcome';
import type { BaseConfigSource } from '../../machines/base-config/base-config.machine';
import { BaseConfigGate, useAppSettings } from './BaseConfigGate';
import { ServicesContext } from './services';
import { fakeServices } from './services.fake';

afterEach(cleanup);

function Settings() {
  const settings = useAppSettings();
  return <p>{settings ? `quota ${settings.nonPaidUserCount}, levels ${settings.hostCallLevels.join(' ')}` : 'no settings yet'}</p>;
}

function mount(failures: number, failure = () => new ApiError('http', 'Server Failure', { status: 500 }), source: BaseConfigSource = 'session') {
  let tries = 0;
  const base = () => {
    tries += 1;
    if (tries <= failures) throw failure();
    return { businessConfig: { enabled: true, nonPaidUserCount: 3, microsoft_translator_config_json: { key: 'k', area: 'local' } } };
  };
  const services = fakeServices({
    [(source === 'appId' ? home.getBaseConfigForIntoBagV2 : home.getBaseConfigForIntoBagV4).path]: base,
    [config.getConfigByKey.path]: () => ({ achor_hide_button: '1, 2,x', prime_achor_can_call: '1' }),
  });
  render(
    <ServicesContext.Provider value={services}>
      <BaseConfigGate source={source}><Settings /></BaseConfigGate>
    </ServicesContext.Provider>,
  );
  return { tries: () => tries, services };
}

describe('[§3 Base config] BaseConfigGate', () => {
  it('[§7 by app id] without a session: the base config by app id alone, tried again like the session\'s; no app config keys', async () => {
    const { tries, services } = mount(2, undefined, 'appId');
    expect(await screen.findByText('quota 3, levels', undefined, { timeout: 5000 })).toBeTruthy();
    expect(tries()).toBe(3);
    expect(services.requests.map((r) => r.path)).toEqual(Array(3).fill(home.getBaseConfigForIntoBagV2.path));
  });

  it('a server that fails twice: the app runs meanwhile and has its settings after the third try', async () => {
    const { tries, services } = mount(2);
    expect(screen.getByText('no settings yet')).toBeTruthy();
    expect(await screen.findByText('quota 3, levels 1 2', undefined, { timeout: 5000 })).toBeTruthy();
    expect(tries()).toBe(3);
    expect(services.requests.find((r) => r.path === config.getConfigByKey.path)?.body)
      .toEqual({ searchValue: 'achor_hide_button,prime_achor_can_call,microsoft_translator_config,max_no_use_app_reminder_time' });
  });

  it('after the first try and three retries: the error screen; Retry loads the settings', async () => {
    const { tries } = mount(4);
    const alert = await screen.findByRole('alert', undefined, { timeout: 6000 });
    expect(alert.textContent).toContain("We couldn't load the app settings");
    expect(tries()).toBe(4);
    expect(screen.queryByText('no settings yet')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByText('quota 3, levels 1 2')).toBeTruthy());
  });

  it('a server out of reach is asked again without the error screen: the app keeps running and gets its settings', async () => {
    const { tries } = mount(1, () => new ApiError('network', 'Network Connection Failure'));
    await waitFor(() => expect(tries()).toBe(1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('no settings yet')).toBeTruthy();
    expect(await screen.findByText('quota 3, levels 1 2', undefined, { timeout: 6000 })).toBeTruthy();
    expect(tries()).toBe(2);
  });
});
