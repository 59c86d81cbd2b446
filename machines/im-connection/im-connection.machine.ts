/**
 * IM connection (SPEC §4 Message service, §8 message-service codes, §9 heartbeat 10 s).
 *
 *   loggingIn ─ok─▶ connected.{idle ⇄ pinging} ─(link lost | ping fails)─▶ loggingIn
 *      ├ -10005 / -10026 ─▶ refreshingToken ─▶ loggingIn
 *      ├ -10002 / -11024 / -11026 / -11028 ─▶ waitingToRetry ─▶ loggingIn   (3 attempts in all)
 *      ├ service out of reach ─▶ offline ─(1, 2, 3, 4, then every 5 s | app.visible)─▶ loggingIn
 *      └ any other code, or attempts spent ─▶ failed: the session logs out
 *
 * "Up to 3 login attempts" (SPEC §4) counts logins the service refused. A login that
 * could not reach the service at all (no network, a server restart) was refused by
 * nobody: logging the user out for it would turn every tunnel into a lost session, so
 * the connection waits in `offline` and keeps trying, sends meanwhile failing with the
 * §8 text; the count starts again once the service answers.
 *   any ─kicked─▶ kicked: the session logs out with 'This account has been logged in on other devices.'
 *   any ─app.hidden (hosts)─▶ loggingOut ─▶ hidden ─app.visible─▶ loggingIn
 *
 * Messages (each server id once), notifications, unread totals and the end of the session
 * leave as emitted events (`ImOutput`); the root actor composes this machine so that they
 * reach it as events instead (see app.actors.ts). A send made while connected runs as its
 * own child and reports back. A send made while a login is under way (loggingIn,
 * waitingToRetry, refreshingToken: the first login after start-up, or a re-login after the
 * link dropped) is held, in order: on `connected` each starts as if made then; if the
 * login ends anywhere else (offline, failed, kicked, loggingOut) each fails with the §5
 * text. With no login under way (offline, loggingOut, hidden) a send fails at once (§5).
 * A second send of a client id held or under way is ignored (`sendIgnored`).
 * Types and event readings: im-connection.types.ts.
 */
import { assign, emit, enqueueActions, fromCallback, fromPromise, stopChild } from 'xstate';
import { setup } from '../setup';
import { ImCode, RELOGIN_CODES, TOKEN_REFRESH_CODES } from '../ports/im.port';
import { codeOf, isKnownSend, outputOf, requestOf } from './im-connection.types';
import type { ImConnectionContext, ImConnectionEmitted, ImConnectionEvent, ImConnectionInput, ImOutput, SendRequest } from './im-connection.types';

export * from './im-connection.types';

export const MAX_LOGIN_ATTEMPTS = 3;
export const TEXT_NOT_CONNECTED = 'Connection not established. Please kill the app and try again.';
export const TEXT_KICKED = 'This account has been logged in on other devices.';
/** How many server ids are remembered to drop a redelivered message. */
export const SEEN_LIMIT = 500;
/** The wait before the n-th try out of `offline`: 1 s, 2 s, 3 s, 4 s, then 5 s. */
export const offlineRetryDelayMs = (tries: number): number => Math.min(tries, 5) * 1000;

const sendChildId = (idClient: string) => `send-${idClient}`;

type ErrorParams = { error: unknown };
const errorParams = ({ event }: { event: { error: unknown } }): ErrorParams => ({ error: event.error });

/** While a login is under way a send waits for its outcome instead of failing at once. */
const holdSends = {
  'im.sendText': [{ guard: 'sendKnown', actions: 'ignoreSend' }, { actions: 'holdSend' }],
} as const;

export const imConnectionMachine = setup({
  types: {
    input: {} as ImConnectionInput,
    context: {} as ImConnectionContext,
    events: {} as ImConnectionEvent,
    emitted: {} as ImConnectionEmitted,
  },
  actors: {
    login: fromPromise<void, { account: string; token: string }>(() => Promise.reject(new Error('login not provided'))),
    logout: fromPromise<void, void>(() => Promise.resolve()),
    refreshToken: fromPromise<string, void>(() => Promise.reject(new Error('refreshToken not provided'))),
    ping: fromPromise<void, void>(() => Promise.reject(new Error('ping not provided'))),
    /** The port subscription: every ImEvent comes back as `im.event`. */
    events: fromCallback<ImConnectionEvent>(() => () => {}),
    /** One text send; reports `im.sent` or `im.sendFailed` to its parent. */
    send: fromCallback<ImConnectionEvent, SendRequest>(() => () => {}),
  },
  guards: {
    tokenRefresh: (_, p: ErrorParams) => TOKEN_REFRESH_CODES.includes(codeOf(p.error) ?? 0),
    retryable: ({ context }, p: ErrorParams) =>
      RELOGIN_CODES.includes(codeOf(p.error) ?? 0) && context.attempts < MAX_LOGIN_ATTEMPTS,
    attemptsLeft: ({ context }) => context.attempts < MAX_LOGIN_ATTEMPTS,
    unreachable: (_, p: ErrorParams) => codeOf(p.error) === ImCode.unreachable,
    disconnectWhenHidden: ({ context }) => context.disconnectWhenHidden,
    appVisible: ({ context }) => context.appVisible,
    isKick: ({ event }) => event.type === 'im.event' && event.event.type === 'kicked',
    isLinkLost: ({ event }) => event.type === 'im.event' && event.event.type === 'disconnected',
    sendUnderWay: ({ context, event }) => 'idClient' in event && context.sending.includes(event.idClient),
    sendKnown: ({ context, event }) => event.type === 'im.sendText' && isKnownSend(context, event.idClient),
    /** Messages (each server id once), notifications, unread totals and conversation changes go up; link events do not. */
    isNewReport: ({ context, event }) => {
      if (event.type !== 'im.event') return false;
      const e = event.event;
      if (e.type === 'message') return !context.seen.includes(e.message.idServer);
      return e.type === 'notification' || e.type === 'unread' || e.type === 'conversation';
    },
  },
  delays: {
    heartbeat: 10_000,
    /** 1 s after the first failure, 2 s after the second. */
    loginRetryDelay: ({ context }) => 1000 * context.attempts,
    offlineRetryDelay: ({ context }) => offlineRetryDelayMs(context.offlineTries),
  },
  actions: {
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    resetAttempts: assign({ attempts: 0, lastError: null }),
    /** Out of reach: nobody refused, so the attempt does not count; one more try in a row offline. */
    noteOffline: assign({ attempts: 0, offlineTries: ({ context }) => context.offlineTries + 1 }),
    resetOffline: assign({ offlineTries: 0 }),
    rememberError: assign({ lastError: (_, p: ErrorParams) => codeOf(p.error) }),
    noteHidden: assign({ appVisible: false }),
    noteVisible: assign({ appVisible: true }),
    remember: assign({
      seen: ({ context, event }) =>
        event.type === 'im.event' && event.event.type === 'message'
          ? [...context.seen, event.event.message.idServer].slice(-SEEN_LIMIT)
          : context.seen,
    }),
    forward: emit(({ event }) => outputOf(event)),
    reportConnected: emit({ type: 'im.connected' } as ImOutput),
    endSession: emit((_, p: { text: string | null }): ImOutput => ({ type: 'im.sessionEnded', text: p.text })),
    refuseSend: emit((_, p: { idClient: string }) => ({
      type: 'sendFailed' as const, idClient: p.idClient, reason: 'notConnected' as const, text: TEXT_NOT_CONNECTED,
    })),
    ignoreSend: emit(({ event }) => ({ type: 'sendIgnored' as const, idClient: requestOf(event).idClient })),
    startSend: enqueueActions(({ context, enqueue }, request: SendRequest) => {
      enqueue.spawnChild('send', { id: sendChildId(request.idClient), input: request });
      enqueue.assign({ sending: [...context.sending, request.idClient] });
    }),
    holdSend: assign({ held: ({ context, event }) => [...context.held, requestOf(event)] }),
    forgetSend: assign({
      sending: ({ context, event }) => context.sending.filter((id) => !('idClient' in event) || id !== event.idClient),
    }),
    stopSend: stopChild(({ event }) => sendChildId('idClient' in event ? event.idClient : '')),
    reportSend: emit(({ event }): ImConnectionEmitted => {
      if (event.type === 'im.sent') return { type: 'sendResult', idClient: event.idClient, message: event.message };
      if (event.type === 'im.sendFailed') {
        return { type: 'sendFailed', idClient: event.idClient, reason: event.reason, text: event.text };
      }
      throw new Error('reportSend needs a send outcome');
    }),
  },
}).extend<{ startHeld: undefined; refuseHeld: undefined }>({
  // Named so that an owner's `refuseSend` (the session's) also reports the held sends.
  actions: {
    /** Connected: the held sends start, in the order they were made. */
    startHeld: enqueueActions(({ context, enqueue }) => {
      for (const request of context.held) enqueue({ type: 'startSend', params: request });
      enqueue.assign({ held: [] });
    }),
    /** The login ended elsewhere than connected: each held send fails as a send made now would. */
    refuseHeld: enqueueActions(({ context, enqueue }) => {
      for (const { idClient } of context.held) enqueue({ type: 'refuseSend', params: { idClient } });
      enqueue.assign({ held: [] });
    }),
  },
}).createMachine({
  id: 'imConnection',
  context: ({ input }) => ({
    ...input, attempts: 0, offlineTries: 0, lastError: null, appVisible: true, seen: [], sending: [], held: [],
  }),
  // The subscription lives as long as the connection actor, across every login.
  invoke: { id: 'events', src: 'events' },
  initial: 'loggingIn',
  on: {
    'im.event': [
      { guard: 'isKick', target: '.kicked' },
      { guard: 'isNewReport', actions: ['remember', 'forward'] },
    ],
    // No login under way (offline, hidden, logging out): SPEC §5, the send fails at once.
    'im.sendText': { actions: { type: 'refuseSend', params: ({ event }) => ({ idClient: event.idClient }) } },
    // A send started while connected may finish after the link dropped: still report it.
    'im.sent': { guard: 'sendUnderWay', actions: ['reportSend', 'stopSend', 'forgetSend'] },
    'im.sendFailed': { guard: 'sendUnderWay', actions: ['reportSend', 'stopSend', 'forgetSend'] },
    'app.hidden': [
      { guard: 'disconnectWhenHidden', target: '.loggingOut', actions: ['noteHidden', 'resetOffline'] },
      { actions: 'noteHidden' },
    ],
    'app.visible': { actions: 'noteVisible' },
  },
  states: {
    loggingIn: {
      entry: 'countAttempt',
      on: holdSends,
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ context }) => ({ account: context.account, token: context.token }),
        onDone: { target: 'connected', actions: ['resetAttempts', 'resetOffline'] },
        onError: [
          {
            guard: { type: 'unreachable', params: errorParams },
            target: 'offline',
            actions: [{ type: 'rememberError', params: errorParams }, 'noteOffline'],
          },
          // The service answered: the offline streak is over.
          {
            guard: { type: 'tokenRefresh', params: errorParams },
            target: 'refreshingToken',
            actions: [{ type: 'rememberError', params: errorParams }, 'resetOffline'],
          },
          {
            guard: { type: 'retryable', params: errorParams },
            target: 'waitingToRetry',
            actions: [{ type: 'rememberError', params: errorParams }, 'resetOffline'],
          },
          { target: 'failed', actions: [{ type: 'rememberError', params: errorParams }, 'resetOffline'] },
        ],
      },
    },
    refreshingToken: {
      on: holdSends,
      invoke: {
        id: 'refreshToken',
        src: 'refreshToken',
        onDone: [
          { guard: 'attemptsLeft', target: 'loggingIn', actions: assign({ token: ({ event }) => event.output }) },
          { target: 'failed' },
        ],
        onError: 'failed',
      },
    },
    waitingToRetry: {
      on: holdSends,
      after: { loginRetryDelay: 'loggingIn' },
    },
    /** The service is out of reach: try again after a while, or at once when the app comes back. */
    offline: {
      entry: 'refuseHeld',
      after: { offlineRetryDelay: 'loggingIn' },
      on: {
        'app.visible': { target: 'loggingIn', actions: 'noteVisible' },
      },
    },
    connected: {
      entry: ['reportConnected', 'startHeld'],
      initial: 'idle',
      states: {
        idle: { after: { heartbeat: 'pinging' } },
        pinging: {
          invoke: { id: 'ping', src: 'ping', onDone: 'idle', onError: { target: '#imConnection.loggingIn', actions: 'resetAttempts' } },
        },
      },
      on: {
        'im.event': [
          { guard: 'isKick', target: 'kicked' },
          { guard: 'isLinkLost', target: 'loggingIn', actions: 'resetAttempts' },
          { guard: 'isNewReport', actions: ['remember', 'forward'] },
        ],
        'im.sendText': [
          // A second tap on a message already under way is ignored.
          { guard: 'sendKnown', actions: 'ignoreSend' },
          { actions: { type: 'startSend', params: ({ event }) => requestOf(event) } },
        ],
      },
    },
    /** Host app hidden: disconnect and stay out until visible again (SPEC §4). */
    loggingOut: {
      entry: 'refuseHeld',
      invoke: { id: 'logout', src: 'logout', onDone: 'hidden', onError: 'hidden' },
      on: { 'app.hidden': { actions: 'noteHidden' } },
    },
    hidden: {
      // The app may have become visible while the logout was under way.
      always: { guard: 'appVisible', target: 'loggingIn', actions: 'resetAttempts' },
      on: {
        'app.hidden': { actions: 'noteHidden' },
        'app.visible': { target: 'loggingIn', actions: ['noteVisible', 'resetAttempts'] },
      },
    },
    kicked: {
      type: 'final',
      // The held sends fail before the session ends, so the open talk hears of them.
      entry: ['refuseHeld', { type: 'endSession', params: { text: TEXT_KICKED } }],
    },
    failed: {
      type: 'final',
      entry: ['refuseHeld', { type: 'endSession', params: { text: null } }],
    },
  },
});

export type ImConnectionMachine = typeof imConnectionMachine;
