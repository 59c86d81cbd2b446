/**
 * The app config (table `app_config`, SPEC §3 App config keys and the server's own settings):
 * one reader for every handler, and the rules read from it that more than one endpoint applies.
 */
import { ConfigKey } from '../../src/api/contract/config';
import type { Db } from './database';

export interface AppConfig {
  /** The value of `key`, or undefined when it is not set. */
  get(key: string): string | undefined;
  /** SPEC §5 host call authorisation: the prime switch is on and the host's level is in `achor_hide_button`. */
  hostCanCall(level: number): boolean;
}

export function appConfig(db: Db): AppConfig {
  const read = db.prepare<[string], string>('SELECT value FROM app_config WHERE key = ?').pluck();
  const get = (key: string): string | undefined => read.get(key);
  return {
    get,
    hostCanCall(level) {
      if (get(ConfigKey.primeHostCanCall)?.trim() !== '1') return false;
      const levels = (get(ConfigKey.hostCallLevels) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      return levels.includes(String(level));
    },
  };
}
