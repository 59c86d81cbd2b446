/** Base-config snapshot → what the app shows (the error screen) and what screens read (the settings). */
import type { SnapshotFrom } from 'xstate';
import type { AppSettings, BaseConfigMachine } from './base-config.machine';

type BaseConfigSnapshot = SnapshotFrom<BaseConfigMachine>;

/** 'loading' covers the tries and the pauses between them: the app runs meanwhile. */
export type BaseConfigPhase = 'loading' | 'failed' | 'loaded';

export function selectBaseConfigPhase(s: BaseConfigSnapshot): BaseConfigPhase {
  if (s.matches('failed')) return 'failed';
  if (s.matches('loaded')) return 'loaded';
  return 'loading';
}

export const selectSettings = (s: BaseConfigSnapshot): AppSettings | null => s.context.settings;
export const selectBaseConfigError = (s: BaseConfigSnapshot): string | null => s.context.error;
