/** The clock the host's money machines read (the composition's, so tests may pass a simulated one). */
import type { ClockPort } from '../../../../machines/ports/clock.port';
import { useServices } from '../../../compose/services';

const windowClock: ClockPort = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (id) => window.clearTimeout(id as number),
};

export function useAppClock(): ClockPort {
  return useServices().clock ?? windowClock;
}
