/**
 * Development-only settings a test may give in the page's address, so that what takes an hour
 * in the product can be watched in seconds. A development build honours them, a production build
 * only when built with VITE_TEST_HOOKS=1 (the e2e build, playwright.config.ts); any other build
 * ignores them, so production keeps SPEC §9's numbers.
 *
 * - `presenceRetry=<tries>x<ms>`: presence gives up after <tries> reconnect tries <ms> apart
 *   (SPEC §9: 720 tries 5 s apart), then says 'Failed to connect WebSocket after retries' (§8).
 */
import type { PresenceRetry } from '../../machines/presence/presence.actors';

export interface DevSettingsEnv {
  PROD: boolean;
  VITE_TEST_HOOKS?: string;
}

/** Whether this build takes development settings: any development build, a production one only with VITE_TEST_HOOKS=1. */
export const devSettingsAllowed = (env: DevSettingsEnv): boolean => !env.PROD || env.VITE_TEST_HOOKS === '1';

const RETRY = /^(\d{1,3})x(\d{2,4})$/;

/** The presence reconnect policy the address asks for, when this build takes it and it is sane; otherwise none (SPEC §9's). */
export function presenceRetryFrom(search: string, env: DevSettingsEnv = import.meta.env): PresenceRetry | undefined {
  if (!devSettingsAllowed(env)) return undefined;
  const match = RETRY.exec(new URLSearchParams(search).get('presenceRetry') ?? '');
  if (!match) return undefined;
  const maxTries = Number(match[1]);
  const delayMs = Number(match[2]);
  return maxTries >= 1 && maxTries <= 720 && delayMs >= 50 && delayMs <= 5000 ? { maxTries, delayMs } : undefined;
}
