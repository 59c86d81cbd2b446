/**
 * In-memory server settings. In auto mode `idleMinutes` reads `value`, the server's
 * `max_no_use_app_reminder_time` as the server keeps it (text; undefined when not set), at
 * every call, and answers it as a number as the HTTP adapter does (a missing or unreadable
 * value is NaN); `refused` makes every call fail as a lookup the server refuses. In manual mode
 * every call waits for the test (`pending.next('loadIdleMinutes')`), the name the session's
 * tests settle; a shared `pending` may be passed in.
 */
import { PendingCalls } from './pending';
import type { SettingsPort } from './settings.port';

export const TEXT_FAKE_SETTINGS_REFUSED = 'The settings could not be read.';

export interface FakeSettingsOptions {
  /** `max_no_use_app_reminder_time` as stored (default '1', the seed's). */
  value?: string | undefined;
  refused?: boolean;
}

export class FakeSettingsPort implements SettingsPort {
  value: string | undefined;
  refused: boolean;
  /** How many times the settings were read. */
  reads = 0;

  constructor(
    readonly mode: 'auto' | 'manual' = 'auto',
    options: FakeSettingsOptions = {},
    readonly pending: PendingCalls = new PendingCalls(),
  ) {
    this.value = 'value' in options ? options.value : '1';
    this.refused = options.refused ?? false;
  }

  async idleMinutes(): Promise<number> {
    this.reads += 1;
    if (this.mode === 'manual') return this.pending.add('loadIdleMinutes', []);
    if (this.refused) throw new Error(TEXT_FAKE_SETTINGS_REFUSED);
    return Number(this.value);
  }
}
