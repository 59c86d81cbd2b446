/** Wall-clock time and timers (ARCHITECTURE.md "The clock is a port"); tests pass a simulated clock. */
export interface ClockPort {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}
