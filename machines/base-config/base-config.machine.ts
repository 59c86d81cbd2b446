/**
 * The base config of the app (SPEC §3 Base config and App config keys; §7 "base config by open
 * params and app id (retried up to 3 times) or by app id"; §8 "Base config failure throws after 3
 * retries"). Signed in, it is loaded for the session (/api/index/v4/getBaseConfigForIntoBag and
 * /api/index/getConfigByKey); on the pages without a session (login, register, landing), by the
 * app id alone (/api/index/v2/getBaseConfigForIntoBag). Which one is the actor's input.
 *
 *   loading.{choosing ─▶ forSession | byAppId} ─done─▶ loaded
 *           ─error, retries left─▶ waiting ─retryDelay─▶ loading
 *           ─error, 3 retries spent─▶ failed ─baseConfig.retry─▶ loading (a fresh round of retries)
 *           ─server out of reach─▶ waitingForServer ─reachDelay─▶ loading (no retry spent)
 *
 * The first try and up to three retries, each retry after a longer pause (0.5 s, 1 s, 2 s), so
 * a server that fails twice is loaded on the third try, and one that keeps failing ends on an
 * error screen whose Retry starts over. A server that cannot be reached at all is the
 * connection's trouble, which the app's offline strip already tells and its reconnects already
 * handle: the settings are asked for again every few seconds until it is back, and the app keeps
 * working meanwhile rather than ending on the error screen.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';

/** SPEC §7/§8: retried up to 3 times after the first try. */
export const MAX_RETRIES = 3;
export const FIRST_RETRY_DELAY_MS = 500;

export interface TranslatorSettings {
  key: string;
  region: string;
  endpoint?: string;
}

/** What the app is configured with (SPEC §3 Base config businessConfig and the App config keys). */
export interface AppSettings {
  /** businessConfig.enabled: translation and the quotas are on. */
  businessEnabled: boolean;
  /** businessConfig.nonPaidUserCount: the daily quota of a user who never paid. */
  nonPaidUserCount: number;
  /** businessConfig.microsoft_translator_config_json; null when none is configured. */
  translator: TranslatorSettings | null;
  /** achor_hide_button: the host levels allowed to call (SPEC §5 host call authorisation). */
  hostCallLevels: readonly number[];
  /** prime_achor_can_call. */
  primeHostCanCall: boolean;
  /** max_no_use_app_reminder_time, minutes; null when not set. */
  idleReminderMinutes: number | null;
}

export interface BaseConfigContext {
  source: BaseConfigSource;
  settings: AppSettings | null;
  /** Retries spent in this round (0 on the first try). */
  retries: number;
  error: string | null;
}

export type BaseConfigEvent =
  | { type: 'baseConfig.retry' }
  /** A try's answer, whichever loader made it (both are invoked as `load`). */
  | { type: 'xstate.done.actor.load'; output: AppSettings }
  | { type: 'xstate.error.actor.load'; error: unknown };

/** What the settings are loaded by: the signed-in session, or the app id alone (no session). */
export type BaseConfigSource = 'session' | 'appId';

export interface BaseConfigInput {
  source: BaseConfigSource;
}

/** What `load` rejects with when the server could not be reached (no answer at all). */
export class ServerUnreachable extends Error {
  override name = 'ServerUnreachable';
}

/** How often an unreachable server is asked again. */
export const REACH_DELAY_MS = 3000;

export const TEXT_BASE_CONFIG_FAILED = 'The app settings could not be loaded.';

/** SPEC §5 host call authorisation: the prime switch is on and the host's level is listed. */
export const hostMayCall = (settings: AppSettings | null, level: number): boolean =>
  settings !== null && settings.primeHostCanCall && settings.hostCallLevels.includes(level);

export const baseConfigMachine = setup({
  types: {
    input: {} as BaseConfigInput,
    context: {} as BaseConfigContext,
    events: {} as BaseConfigEvent,
  },
  actors: {
    /** For the signed-in session (SPEC §7 by open params and app id, and the app config keys). */
    loadForSession: fromPromise<AppSettings, void>(() => Promise.reject(new Error('loadForSession not provided'))),
    /** By the app id alone, without a session (SPEC §7 "or by app id"). */
    loadByAppId: fromPromise<AppSettings, void>(() => Promise.reject(new Error('loadByAppId not provided'))),
  },
  delays: {
    /** 0.5 s before the first retry, doubling after each. */
    retryDelay: ({ context }) => FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, context.retries - 1),
    reachDelay: REACH_DELAY_MS,
  },
  guards: {
    byAppId: ({ context }) => context.source === 'appId',
    retriesLeft: ({ context }) => context.retries < MAX_RETRIES,
    unreachable: ({ event }) => event.type === 'xstate.error.actor.load' && event.error instanceof ServerUnreachable,
  },
}).createMachine({
  id: 'baseConfig',
  context: ({ input }) => ({ source: input.source, settings: null, retries: 0, error: null }),
  initial: 'loading',
  states: {
    /** One try, by the source of the input; both answer as `load`, so one set of outcomes follows. */
    loading: {
      initial: 'choosing',
      states: {
        choosing: {
          always: [{ guard: 'byAppId', target: 'byAppId' }, { target: 'forSession' }],
        },
        forSession: {
          invoke: { id: 'load', src: 'loadForSession' },
        },
        byAppId: {
          invoke: { id: 'load', src: 'loadByAppId' },
        },
      },
      on: {
        'xstate.done.actor.load': {
          target: 'loaded',
          actions: assign(({ event }) => (event.type === 'xstate.done.actor.load' ? { settings: event.output, error: null } : {})),
        },
        'xstate.error.actor.load': [
          { guard: 'unreachable', target: 'waitingForServer' },
          { guard: 'retriesLeft', target: 'waiting', actions: assign({ retries: ({ context }) => context.retries + 1 }) },
          {
            target: 'failed',
            actions: assign({
              error: ({ event }) => (event.type === 'xstate.error.actor.load' && event.error instanceof Error && event.error.message
                ? event.error.message : TEXT_BASE_CONFIG_FAILED),
            }),
          },
        ],
      },
    },
    /** A pause before the next try. */
    waiting: {
      after: { retryDelay: 'loading' },
    },
    /** The server is out of reach: asked again in a while, without spending a retry. */
    waitingForServer: {
      after: { reachDelay: 'loading' },
    },
    /** Every try failed: the error screen, with a Retry. */
    failed: {
      on: { 'baseConfig.retry': { target: 'loading', actions: assign({ retries: 0, error: null }) } },
    },
    loaded: {},
  },
});

export type BaseConfigMachine = typeof baseConfigMachine;
