/**
 * Idle host (SPEC §4 Idle host, §9 idle-offline reminder default 1 minute).
 *
 *   loadingLimit ─▶ watching ─idle.deadlinePassed─▶ settingOffline ─▶ offline (dialog)
 *   offline ─host.goOnline─▶ settingOnline ─▶ watching
 *
 * The limit (`max_no_use_app_reminder_time`, minutes) comes from the server. Time is
 * measured against a deadline, not by counting ticks: input moves the deadline, and the
 * `deadline` actor compares the clock with it whenever it wakes (and at once when the app
 * comes back into view), so a throttled background tab or a slept phone cannot stretch it.
 */
import { assign, fromCallback, fromPromise } from 'xstate';
import { setup } from '../setup';

export const DEFAULT_IDLE_MINUTES = 1;

export interface IdleHostContext {
  limitMs: number;
  /** When the host counts as idle, in clock milliseconds. */
  deadline: number;
}

export type IdleHostEvent =
  | { type: 'user.input' }
  | { type: 'app.visible' }
  | { type: 'host.goOnline' }
  | { type: 'idle.deadlinePassed' };

export const idleHostMachine = setup({
  types: {
    context: {} as IdleHostContext,
    events: {} as IdleHostEvent,
  },
  actors: {
    /** Minutes of `max_no_use_app_reminder_time`; a failure falls back to the default. */
    loadLimit: fromPromise<number, void>(() => Promise.resolve(DEFAULT_IDLE_MINUTES)),
    setOnline: fromPromise<void, boolean>(() => Promise.resolve()),
    /** Sends `idle.deadlinePassed` once the clock reaches the deadline. */
    deadline: fromCallback<IdleHostEvent, number>(() => () => {}),
  },
  actions: {
    // The composition provides the real clock (see idle-host.actors.ts).
    armDeadline: assign({ deadline: ({ context }) => Date.now() + context.limitMs }),
  },
}).createMachine({
  id: 'idleHost',
  context: { limitMs: DEFAULT_IDLE_MINUTES * 60_000, deadline: 0 },
  initial: 'loadingLimit',
  states: {
    loadingLimit: {
      invoke: {
        id: 'loadLimit',
        src: 'loadLimit',
        onDone: {
          target: 'watching',
          actions: [
            assign({
              limitMs: ({ event }) =>
                (Number.isFinite(event.output) && event.output > 0 ? event.output : DEFAULT_IDLE_MINUTES) * 60_000,
            }),
            'armDeadline',
          ],
        },
        onError: { target: 'watching', actions: 'armDeadline' },
      },
    },
    watching: {
      invoke: { id: 'deadline', src: 'deadline', input: ({ context }) => context.deadline },
      on: {
        'user.input': { target: 'watching', reenter: true, actions: 'armDeadline' },
        // Back from the background (or a slept phone): look at the clock again now.
        'app.visible': { target: 'watching', reenter: true },
        'idle.deadlinePassed': 'settingOffline',
      },
    },
    settingOffline: {
      invoke: { id: 'setOffline', src: 'setOnline', input: false, onDone: 'offline', onError: 'offline' },
    },
    /** The host is offline; the dialog with 'Go Online' shows. */
    offline: {
      on: { 'host.goOnline': 'settingOnline' },
    },
    settingOnline: {
      invoke: {
        id: 'setOnline',
        src: 'setOnline',
        input: true,
        onDone: { target: 'watching', actions: 'armDeadline' },
        onError: 'offline',
      },
    },
  },
});

export type IdleHostMachine = typeof idleHostMachine;
