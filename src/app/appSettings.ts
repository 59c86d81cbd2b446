/**
 * Loading the app settings (SPEC §3 Base config and App config keys): the v4 base config
 * (businessConfig) and the §3 app config keys in one getConfigByKey with a comma list.
 * The retries are the base-config machine's; each failure here is one try.
 */
import type { AppSettings } from '../../machines/base-config/base-config.machine';
import type { ApiClient } from '../api/client';
import { config as configContract, home } from '../api/contract';

const { ConfigKey } = configContract;

/** The comma list of SPEC §3 app config keys. */
export const APP_CONFIG_KEYS = Object.values(ConfigKey).join(',');

/** A comma list of whole numbers ('1,2, 3') → [1, 2, 3]; anything else is left out. */
export const numbersOf = (text: string | undefined): number[] =>
  (text ?? '').split(',').map((s) => s.trim()).filter((s) => /^\d+$/.test(s)).map(Number);

export async function loadAppSettings(api: ApiClient): Promise<AppSettings> {
  const [base, values] = await Promise.all([
    api.data(home.getBaseConfigForIntoBagV4, {}, { silent: true }),
    api.data(configContract.getConfigByKey, { searchValue: APP_CONFIG_KEYS }, { silent: true }),
  ]);
  const { businessConfig } = base;
  const translator = businessConfig.microsoft_translator_config_json;
  const minutes = Number(values[ConfigKey.idleReminderMinutes]);
  return {
    businessEnabled: businessConfig.enabled,
    nonPaidUserCount: businessConfig.nonPaidUserCount,
    translator: translator
      ? { key: translator.key, region: translator.area, ...(translator.endpoint ? { endpoint: translator.endpoint } : {}) }
      : null,
    hostCallLevels: numbersOf(values[ConfigKey.hostCallLevels]),
    primeHostCanCall: values[ConfigKey.primeHostCanCall]?.trim() === '1',
    idleReminderMinutes: Number.isFinite(minutes) && minutes > 0 ? minutes : null,
  };
}
