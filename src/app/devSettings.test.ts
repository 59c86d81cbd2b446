import { describe, expect, it } from 'vitest';
import { devSettingsAllowed, presenceRetryFrom } from './devSettings';

const production = { PROD: true };
const e2eBuild = { PROD: true, VITE_TEST_HOOKS: '1' };
const development = { PROD: false };

describe('development-only settings', () => {
  it('are taken by a development build and by a production build made with VITE_TEST_HOOKS=1 only', () => {
    expect(devSettingsAllowed(development)).toBe(true);
    expect(devSettingsAllowed(e2eBuild)).toBe(true);
    expect(devSettingsAllowed(production)).toBe(false);
    expect(devSettingsAllowed({ PROD: true, VITE_TEST_HOOKS: 'yes' })).toBe(false);
  });

  it('presenceRetry=<tries>x<ms> shortens presence\'s reconnect policy; a production build keeps SPEC §9\'s', () => {
    expect(presenceRetryFrom('?presenceRetry=2x200', e2eBuild)).toEqual({ maxTries: 2, delayMs: 200 });
    expect(presenceRetryFrom('?a=1&presenceRetry=3x1000', development)).toEqual({ maxTries: 3, delayMs: 1000 });
    expect(presenceRetryFrom('?presenceRetry=2x200', production)).toBeUndefined();
    for (const bad of ['', '?presenceRetry=0x200', '?presenceRetry=2x10', '?presenceRetry=999x200', '?presenceRetry=2x9999', '?presenceRetry=x']) {
      expect(presenceRetryFrom(bad, e2eBuild), bad).toBeUndefined();
    }
  });
});
