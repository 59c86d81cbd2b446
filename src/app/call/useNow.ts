/** The clock for what is shown from a deadline or a start time (timers, countdowns, what is left). */
import { useEffect, useState } from 'react';

/** Date.now(), again every `everyMs` while `active`; what is shown is always computed from it, never counted. */
export function useNow(active: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
