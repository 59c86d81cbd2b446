/**
 * Presence (SPEC §4 Presence, §9 heartbeat 5 s, reconnect every 5 s up to 720 tries,
 * presence timeout 5 s). Two regions:
 *
 *   activity: foreground ⇄ background; calling → callEnded → foreground; idleOffline
 *             (the code each state reports: 10002, 10003, 10000, 10001, 2)
 *   link:     connecting ─▶ online.{sending ⇄ idle} ─(closed | no ack in 5 s)─▶ waiting ─5 s─▶ connecting
 *             waiting ─(720 tries spent)─▶ gaveUp ─presence.retry─▶ connecting (720 tries again)
 *             any ─presence.goOffline─▶ closing ─▶ closed (final)
 *
 * The current code is sent on connect, on every change, and every 5 s unless the app is in
 * the background. Logging out sends offline (2) and closes the socket. Having given up, the
 * person is told so (SPEC §8 'Failed to connect WebSocket after retries', TEXT_GAVE_UP) with a
 * way to try again (`presence.retry`). The retry policy is SPEC §9's; a development build may
 * shorten it (presence.actors.ts), so that a test need not wait an hour.
 */
import { assign, enqueueActions, fromCallback, fromPromise, raise } from 'xstate';
import { setup } from '../setup';
import { PresenceCode } from '../ports/presence.port';

export const MAX_RECONNECT_TRIES = 720;
/** SPEC §9: reconnect every 5 s. */
export const RECONNECT_DELAY_MS = 5000;
/** SPEC §8: presence gave up reconnecting. */
export const TEXT_GAVE_UP = 'Failed to connect WebSocket after retries';

export interface PresenceInput {
  /** Reconnect tries before giving up (SPEC §9: 720, one every 5 s = an hour). */
  maxTries?: number;
}

export interface PresenceContext {
  code: PresenceCode;
  tries: number;
  maxTries: number;
}

export type PresenceEvent =
  | { type: 'app.hidden' }
  | { type: 'app.visible' }
  | { type: 'call.started' }
  | { type: 'call.ended' }
  | { type: 'host.idleOffline' }
  | { type: 'host.online' }
  | { type: 'presence.goOffline' }
  /** The person asks to try again after presence gave up. */
  | { type: 'presence.retry' }
  | { type: 'presence.closed' }
  /** Internal: the code to report changed. */
  | { type: 'presence.changed' }
  /** Internal: the server acknowledged the code. */
  | { type: 'presence.sent' };

export const presenceMachine = setup({
  types: {
    input: {} as PresenceInput,
    context: {} as PresenceContext,
    events: {} as PresenceEvent,
  },
  actors: {
    open: fromPromise<void, void>(() => Promise.reject(new Error('open not provided'))),
    send: fromPromise<void, PresenceCode>(() => Promise.reject(new Error('send not provided'))),
    /** The socket's close notice, as `presence.closed`. */
    watch: fromCallback<PresenceEvent>(() => () => {}),
  },
  actions: {
    /** Closes the socket (the composition provides it). */
    closeSocket: enqueueActions(() => {}),
    /** Takes the code to report and tells the link region to send it. */
    report: enqueueActions(({ enqueue }, params: { code: PresenceCode }) => {
      enqueue.assign({ code: params.code });
      enqueue.raise({ type: 'presence.changed' });
    }),
  },
  guards: {
    triesLeft: ({ context }) => context.tries < context.maxTries,
  },
  delays: {
    heartbeat: 5000,
    reconnectDelay: RECONNECT_DELAY_MS,
    presenceTimeout: 5000,
  },
}).createMachine({
  id: 'presence',
  context: ({ input }) => ({ code: PresenceCode.foreground, tries: 0, maxTries: input?.maxTries ?? MAX_RECONNECT_TRIES }),
  initial: 'running',
  states: {
  running: {
  type: 'parallel',
  states: {
    activity: {
      initial: 'foreground',
      states: {
        foreground: {
          entry: { type: 'report', params: { code: PresenceCode.foreground } },
          on: { 'app.hidden': 'background', 'call.started': 'calling', 'host.idleOffline': 'idleOffline' },
        },
        background: {
          entry: { type: 'report', params: { code: PresenceCode.background } },
          on: { 'app.visible': 'foreground', 'call.started': 'calling' },
        },
        calling: {
          entry: { type: 'report', params: { code: PresenceCode.calling } },
          on: { 'call.ended': 'callEnded' },
        },
        /** 10001 goes out once; once it is acknowledged the app reports foreground again. */
        callEnded: {
          entry: { type: 'report', params: { code: PresenceCode.callEnd } },
          on: { 'presence.sent': 'foreground', 'call.started': 'calling', 'app.hidden': 'background' },
        },
        /** The idle-host rule set this host offline (SPEC §4 Idle host). */
        idleOffline: {
          entry: { type: 'report', params: { code: PresenceCode.offline } },
          on: { 'host.online': 'foreground' },
        },
      },
    },
    link: {
      initial: 'connecting',
      states: {
        connecting: {
          entry: assign({ tries: ({ context }) => context.tries + 1 }),
          invoke: { id: 'open', src: 'open', onDone: { target: 'online', actions: assign({ tries: 0 }) }, onError: 'waiting' },
        },
        online: {
          invoke: { id: 'watch', src: 'watch' },
          initial: 'sending',
          on: { 'presence.closed': 'waiting' },
          states: {
            sending: {
              invoke: {
                id: 'send',
                src: 'send',
                input: ({ context }) => context.code,
                onDone: { target: 'idle', actions: raise({ type: 'presence.sent' }) },
                onError: '#presence.running.link.waiting',
              },
              after: { presenceTimeout: '#presence.running.link.waiting' },
              // A change while a send is out is sent right after it.
              on: { 'presence.changed': { target: 'sending', reenter: true } },
            },
            idle: {
              after: {
                heartbeat: { guard: ({ context }) => context.code !== PresenceCode.background, target: 'sending' },
              },
              on: { 'presence.changed': 'sending' },
            },
          },
        },
        waiting: {
          after: {
            reconnectDelay: [{ guard: 'triesLeft', target: 'connecting' }, { target: 'gaveUp' }],
          },
        },
        /** Out of tries: the person is told, and may try again (as many tries as at first). */
        gaveUp: {
          on: { 'presence.retry': { target: 'connecting', actions: assign({ tries: 0 }) } },
        },
        closing: {
          invoke: {
            id: 'sendOffline',
            src: 'send',
            input: PresenceCode.offline,
            onDone: '#presence.closed',
            onError: '#presence.closed',
          },
          after: { presenceTimeout: '#presence.closed' },
        },
      },
      on: { 'presence.goOffline': '.closing' },
    },
  },
  },
  /** Logged out: the socket is closed and the actor is done. */
  closed: { type: 'final', entry: 'closeSocket' },
  },
});

export type PresenceMachine = typeof presenceMachine;
