/**
 * Loading the app settings (SPEC §3 Base config and App config keys): signed in, the v4 base
 * config (businessConfig) and the §3 app config keys in one getConfigByKey with a comma list;
 * without a session, the v2 base config by app id alone.
 * The retries are the base-config machine's; each failure here is one try.
 */
import type { AppSettings } from '../../machines/base-config/base-config.machine';
import type { ApiClient } from '../api/client';
import * as configContract from '../api/contract/config';
import * as home from '../api/contract/home';
import type { BaseConfig } from '../api/contract/home';

const { ConfigKey } = configContract;

/** The comma list of SPEC §3 app config keys. */
export const APP_CONFIG_KEYS = Object.values(ConfigKey).join(',');

/** A comma list of whole numbers ('1,2, 3') → [1, 2, 3]; anything else is left out. */
export const numbersOf = (text: string | undefined): number[] =>
  (text ?? '').split(',').map((s) => s.trim()).filter((s) => /^\d+$/.test(s)).map(Number);

/** The settings from the base config and the app config keys' values (none without a session). */
function settingsOf(base: BaseConfig, values: Readonly<Record<string, string>>): AppSettings {
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

/** Signed in: the base config by open params and app id (v4) with the app config keys. */
export async function loadAppSettings(api: ApiClient): Promise<AppSettings> {
  const [base, values] = await Promise.all([
    api.data(home.getBaseConfigForIntoBagV4, {}, { silent: true }),
    api.data(configContract.getConfigByKey, { searchValue: APP_CONFIG_KEYS }, { silent: true }),
  ]);
  return settingsOf(base, values);
}

/**
 * Without a session (the login, register and landing pages): the base config by the app id
 * alone (v2, SPEC §7 "or by app id"); the app config keys need a session, so none is set.
 */
export async function loadAppSettingsByAppId(api: ApiClient): Promise<AppSettings> {
  return settingsOf(await api.data(home.getBaseConfigForIntoBagV2, {}, { silent: true }), {});
}
