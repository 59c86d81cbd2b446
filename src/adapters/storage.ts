/**
 * Browser storage, reached only from here: the kept auth data (SPEC §3 stored auth data)
 * and the full wipe that logout requires (token and every stored item: localStorage,
 * sessionStorage, IndexedDB and Cache Storage).
 */
import type { AppMode } from '../../machines/app/app.paths';
import type { StoredAuth } from '../../machines/ports/session.port';

const AUTH_KEY = 'app.auth';
const DEVICE_KEY = 'app.device';

export function safeStorage(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return window[kind];
  } catch {
    return null; // storage disabled (private mode, sandboxed webview)
  }
}

export function readStoredAuth(): StoredAuth | null {
  const raw = safeStorage('localStorage')?.getItem(AUTH_KEY);
  if (!raw) return null;
  try {
    return parseAuth(JSON.parse(raw));
  } catch {
    return null;
  }
}

export function writeStoredAuth(auth: StoredAuth): void {
  safeStorage('localStorage')?.setItem(AUTH_KEY, JSON.stringify(auth));
}

const pinsKey = (account: string) => `app.pins.${account}`;

/** Pinned chat session ids of an account (SPEC §5 pinning); anything unreadable is no pins. */
export function readPins(account: string): string[] {
  try {
    const parsed: unknown = JSON.parse(safeStorage('localStorage')?.getItem(pinsKey(account)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string').slice(0, 5) : [];
  } catch {
    return [];
  }
}

export function writePins(account: string, ids: readonly string[]): void {
  safeStorage('localStorage')?.setItem(pinsKey(account), JSON.stringify(ids));
}

const chatQuotaKey = (account: string) => `app.chatQuota.${account}`;

/** Whom the account wrote to on `day` (SPEC §4 non-paid user quota); another day's record, or anything unreadable, is none. */
export function readChatQuota(account: string, day: string): string[] {
  try {
    const parsed: unknown = JSON.parse(safeStorage('localStorage')?.getItem(chatQuotaKey(account)) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return [];
    const { day: kept, peers } = parsed as Record<string, unknown>;
    return kept === day && Array.isArray(peers) ? peers.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** Keeps one day per account: the day before is forgotten. */
export function writeChatQuota(account: string, day: string, peers: readonly string[]): void {
  safeStorage('localStorage')?.setItem(chatQuotaKey(account), JSON.stringify({ day, peers }));
}

const MODE_KEY = 'app.mode';

/** The mode the last session ran in (host or not), so the next start can fetch its first screen early. */
export function readLastMode(): AppMode | null {
  const mode = safeStorage('localStorage')?.getItem(MODE_KEY);
  return mode === 'host' || mode === 'restricted' ? mode : null;
}

export function writeLastMode(mode: AppMode): void {
  safeStorage('localStorage')?.setItem(MODE_KEY, mode);
}

export function readDeviceId(): string | null {
  return safeStorage('localStorage')?.getItem(DEVICE_KEY) ?? null;
}

export function writeDeviceId(id: string): void {
  safeStorage('localStorage')?.setItem(DEVICE_KEY, id);
}

const AUTH_FIELDS = [
  'loginUuid', 'token', 'appId', 'deviceType', 'deviceId', 'deviceNo', 'osType', 'osVersion', 'appVersion',
] as const satisfies readonly (keyof StoredAuth)[];

/** Accepts only a complete set of non-empty string fields; anything else is no auth at all. */
export function parseAuth(value: unknown): StoredAuth | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const out: Partial<StoredAuth> = {};
  for (const field of AUTH_FIELDS) {
    const v = record[field];
    if (typeof v !== 'string' || v.trim() === '' || v.length > 512) return null;
    out[field] = v;
  }
  return out as StoredAuth;
}

export { AUTH_FIELDS };

/** Clears every stored item the app may have written. Never throws. */
export async function clearAllStorage(): Promise<void> {
  safeStorage('localStorage')?.clear();
  safeStorage('sessionStorage')?.clear();
  const jobs: Promise<unknown>[] = [];
  try {
    if (typeof indexedDB !== 'undefined' && 'databases' in indexedDB) {
      const dbs = await indexedDB.databases();
      for (const db of dbs) {
        if (!db.name) continue;
        jobs.push(new Promise<void>((resolve) => {
          const request = indexedDB.deleteDatabase(db.name!);
          request.onsuccess = request.onerror = request.onblocked = () => resolve();
        }));
      }
    }
  } catch {
    // IndexedDB unavailable: nothing to clear there.
  }
  try {
    if (typeof caches !== 'undefined') {
      for (const key of await caches.keys()) jobs.push(caches.delete(key));
    }
  } catch {
    // Cache Storage unavailable (insecure context): nothing to clear there.
  }
  await Promise.allSettled(jobs);
}
