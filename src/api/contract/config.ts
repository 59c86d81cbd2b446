/** App configuration lookups (SPEC §3 App config keys, §7 /api/index/getConfigByKey). */
import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint';

/** The app config keys of SPEC §3. */
export const ConfigKey = {
  hostCallLevels: 'achor_hide_button',
  primeHostCanCall: 'prime_achor_can_call',
  translator: 'microsoft_translator_config',
  idleReminderMinutes: 'max_no_use_app_reminder_time',
} as const;

/**
 * SPEC §9 "calling time-out from config callTimeOutNum", seconds (30 when not set): a server
 * setting, answered to the caller in createCall's `ringTimeoutMs` rather than asked for by the app.
 */
export const CALL_TIMEOUT_CONFIG_KEY = 'callTimeOutNum';

/** `searchValue` is a comma list of keys; the answer maps each known key to its value. */
export const getConfigByKey = defineEndpoint({
  path: '/api/index/getConfigByKey',
  method: 'POST',
  auth: 'session',
  visitors: 'allowed',
  request: z.object({ searchValue: z.string().check(z.minLength(1), z.maxLength(1000)) }),
  response: z.record(z.string(), z.string()),
});
