/** idleHost composed with its clock and ports. */
import { assign, fromCallback, fromPromise } from 'xstate';
import { idleHostMachine } from './idle-host.machine';
import type { IdleHostEvent } from './idle-host.machine';
import type { ClockPort } from '../ports/clock.port';
import type { SettingsPort } from '../ports/settings.port';

// The session's wiring still takes the type from here.
export type { ClockPort } from '../ports/clock.port';

export interface IdleHostPorts {
  clock: ClockPort;
  /** `max_no_use_app_reminder_time` in minutes. */
  settings: SettingsPort;
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

export function composeIdleHost({ clock, settings, setHostOnline }: IdleHostPorts) {
  return idleHostMachine.provide({
    actors: {
      loadLimit: fromPromise(() => settings.idleMinutes()),
      setOnline: fromPromise<void, boolean>(({ input }) => setHostOnline(input)),
      deadline: deadlineWatcher(clock),
    },
    actions: {
      armDeadline: assign({ deadline: ({ context }) => clock.now() + context.limitMs }),
    },
  });
}
