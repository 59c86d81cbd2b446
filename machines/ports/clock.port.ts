/** Wall-clock time and timers (ARCHITECTURE.md "The clock is a port"); tests pass a simulated clock. */
export interface ClockPort {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

/** What reads the time: the clock's `now`, as the machines' compositions take it. */
export type Now = ClockPort['now'];

/**
 * The wall clock, the one place machines/ reads it: what a machine reads when its composition
 * gives it no clock (a machine run bare, by a test or a page that composes nothing).
 */
export const systemNow: Now = () => Date.now();
