/** App configuration lookups: the SPEC §3 keys stored in app_config. */
import type { Database } from 'better-sqlite3';
import type * as config from '../../src/api/contract/config';
import type { HandlersOf } from './transport';

/** At most this many keys per lookup. */
const MAX_KEYS = 50;

export function configHandlers(db: Database): HandlersOf<typeof config> {
  const read = db.prepare<[string], { value: string }>('SELECT value FROM app_config WHERE key = ?');
  return {
    getConfigByKey({ body }) {
      const keys = [...new Set(body.searchValue.split(',').map((k) => k.trim()).filter(Boolean))].slice(0, MAX_KEYS);
      const out: Record<string, string> = {};
      for (const key of keys) {
        const row = read.get(key);
        if (row) out[key] = row.value;
      }
      return out;
    },
  };
}
