/** idleHost composed with its clock and ports. */
import { fromCallback, fromPromise } from 'xstate';
import { idleHostMachine } from './idle-host.machine';
import type { DeadlineInput, IdleHostEvent } from './idle-host.machine';
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
 * Takes the deadline from the clock when there is none yet (and reports it), then wakes when
 * it should have come and compares with the clock; a timer that fired early (or a clock that
 * jumped back) just sleeps again for what is left.
 */
export function deadlineWatcher(clock: ClockPort) {
  return fromCallback<IdleHostEvent, DeadlineInput>(({ input, sendBack }) => {
    const deadline = input.deadline ?? clock.now() + input.limitMs;
    if (input.deadline === null) sendBack({ type: 'idle.deadlineArmed', deadline });
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
  });
}
