/** idleHost composed with its clock and ports. */
import { assign, fromCallback, fromPromise } from 'xstate';
import { idleHostMachine } from './idle-host.machine';
import type { IdleHostEvent } from './idle-host.machine';

/** Wall-clock time and timers; tests pass a simulated clock. */
export interface ClockPort {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export interface IdleHostPorts {
  clock: ClockPort;
  /** `max_no_use_app_reminder_time` in minutes. */
  loadIdleMinutes: () => Promise<number>;
  /** Sets the host online or offline (through presence). */
  setHostOnline: (online: boolean) => Promise<void>;
}

/**
 * Wakes when the deadline should have come and compares with the clock; a timer that fired
 * early (or a clock that jumped back) just sleeps again for what is left.
 */
export function deadlineWatcher(clock: ClockPort) {
  return fromCallback<IdleHostEvent, number>(({ input: deadline, sendBack }) => {
    let timer: unknown;
    const check = () => {
      const left = deadline - clock.now();
      if (left <= 0) sendBack({ type: 'idle.deadlinePassed' });
      else timer = clock.setTimeout(check, left);
    };
    check();
    return () => clock.clearTimeout(timer);
  });
}

export function composeIdleHost({ clock, loadIdleMinutes, setHostOnline }: IdleHostPorts) {
  return idleHostMachine.provide({
    actors: {
      loadLimit: fromPromise(() => loadIdleMinutes()),
      setOnline: fromPromise<void, boolean>(({ input }) => setHostOnline(input)),
      deadline: deadlineWatcher(clock),
    },
    actions: {
      armDeadline: assign({ deadline: ({ context }) => clock.now() + context.limitMs }),
    },
  });
}
