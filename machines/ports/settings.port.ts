/** The server's settings the session reads (SPEC §7 getConfigByKey). */
export interface SettingsPort {
  /** `max_no_use_app_reminder_time`: minutes a host may stay idle before going offline (SPEC §4 Idle host). */
  idleMinutes(): Promise<number>;
}
