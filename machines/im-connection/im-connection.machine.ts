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
 * reach it as events instead (see app.actors.ts). A send made while not connected fails at
 * once with the §8 text; a send made while connected runs as its own child and reports back.
 */
import { assign, emit, fromCallback, fromPromise, setup, spawnChild, stopChild } from 'xstate';
import type { ImConversation, ImEvent, ImMessage } from '../ports/im.port';
import { ImCode, RELOGIN_CODES, TOKEN_REFRESH_CODES } from '../ports/im.port';

export const MAX_LOGIN_ATTEMPTS = 3;
export const TEXT_NOT_CONNECTED = 'Connection not established. Please kill the app and try again.';
export const TEXT_KICKED = 'This account has been logged in on other devices.';
/** How many server ids are remembered to drop a redelivered message. */
export const SEEN_LIMIT = 500;
/** The wait before the n-th try out of `offline`: 1 s, 2 s, 3 s, 4 s, then 5 s. */
export const offlineRetryDelayMs = (tries: number): number => Math.min(tries, 5) * 1000;

export interface ImConnectionInput {
  account: string;
  token: string;
  /** Hosts disconnect while the app is hidden (SPEC §4). */
  disconnectWhenHidden: boolean;
}

export interface ImConnectionContext extends ImConnectionInput {
  attempts: number;
  /** Tries in a row that found the service out of reach. */
  offlineTries: number;
  lastError: number | null;
  /** The last visibility the app reported (a fact from outside). */
  appVisible: boolean;
  seen: readonly string[];
  /** Client ids of the sends under way. */
  sending: readonly string[];
}

export interface SendRequest {
  to: string;
  text: string;
  idClient: string;
  /** SPEC §3 Message ext (e.g. a secret message's privateMsg). */
  ext?: Record<string, unknown>;
}

export type SendOutcome =
  | { type: 'im.sent'; idClient: string; message: ImMessage }
  | { type: 'im.sendFailed'; idClient: string; reason: 'refused' | 'error'; text: string };

export type ImConnectionEvent =
  | { type: 'im.event'; event: ImEvent }
  | ({ type: 'im.sendText' } & SendRequest)
  | SendOutcome
  | { type: 'app.hidden' }
  | { type: 'app.visible' };

/** What the connection reports to whoever owns it (the root actor). */
export type ImOutput =
  | { type: 'im.message'; message: ImMessage }
  | { type: 'im.notification'; content: unknown; from: string }
  | { type: 'im.unreadChanged'; count: number }
  | { type: 'im.conversationChanged'; conversation: ImConversation }
  /** Logged in (again): lists kept elsewhere load (again). */
  | { type: 'im.connected' }
  /** The session must end: `text` is shown first when there is one. */
  | { type: 'im.sessionEnded'; text: string | null };

export type ImConnectionEmitted =
  | ImOutput
  | { type: 'sendResult'; idClient: string; message: ImMessage }
  /** A second send of a message already under way (a double tap). */
  | { type: 'sendIgnored'; idClient: string }
  | { type: 'sendFailed'; idClient: string; reason: 'notConnected' | 'refused' | 'error'; text: string };

/** The output for a port event worth reporting (see the `isNewReport` guard). */
export function outputOf(event: ImConnectionEvent): ImOutput {
  const e = event.type === 'im.event' ? event.event : null;
  if (e?.type === 'message') return { type: 'im.message', message: e.message };
  if (e?.type === 'notification') return { type: 'im.notification', content: e.notification.content, from: e.notification.from };
  if (e?.type === 'unread') return { type: 'im.unreadChanged', count: e.total };
  if (e?.type === 'conversation') return { type: 'im.conversationChanged', conversation: e.conversation };
  throw new Error(`${e?.type ?? event.type} is not reported`);
}

export const codeOf = (error: unknown): number | null =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'number'
    ? (error as { code: number }).code
    : null;

const sendChildId = (idClient: string) => `send-${idClient}`;

type ErrorParams = { error: unknown };
const errorParams = ({ event }: { event: { error: unknown } }): ErrorParams => ({ error: event.error });

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
    refuseSend: emit(({ event }) => ({
      type: 'sendFailed' as const,
      idClient: event.type === 'im.sendText' ? event.idClient : '',
      reason: 'notConnected' as const,
      text: TEXT_NOT_CONNECTED,
    })),
    startSend: spawnChild('send', {
      id: ({ event }) => sendChildId(event.type === 'im.sendText' ? event.idClient : ''),
      input: ({ event }) => {
        if (event.type !== 'im.sendText') throw new Error('startSend needs im.sendText');
        return { to: event.to, text: event.text, idClient: event.idClient, ...(event.ext ? { ext: event.ext } : {}) };
      },
    }),
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
}).createMachine({
  id: 'imConnection',
  context: ({ input }) => ({ ...input, attempts: 0, offlineTries: 0, lastError: null, appVisible: true, seen: [], sending: [] }),
  // The subscription lives as long as the connection actor, across every login.
  invoke: { id: 'events', src: 'events' },
  initial: 'loggingIn',
  on: {
    'im.event': [
      { guard: 'isKick', target: '.kicked' },
      { guard: 'isNewReport', actions: ['remember', 'forward'] },
    ],
    'im.sendText': { actions: 'refuseSend' },
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
      after: { loginRetryDelay: 'loggingIn' },
    },
    /** The service is out of reach: try again after a while, or at once when the app comes back. */
    offline: {
      after: { offlineRetryDelay: 'loggingIn' },
      on: {
        'app.visible': { target: 'loggingIn', actions: 'noteVisible' },
      },
    },
    connected: {
      entry: 'reportConnected',
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
          {
            guard: ({ context, event }) => context.sending.includes(event.idClient),
            actions: emit(({ event }) => ({ type: 'sendIgnored' as const, idClient: event.idClient })),
          },
          { actions: ['startSend', assign({ sending: ({ context, event }) => [...context.sending, event.idClient] })] },
        ],
      },
    },
    /** Host app hidden: disconnect and stay out until visible again (SPEC §4). */
    loggingOut: {
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
      entry: { type: 'endSession', params: { text: TEXT_KICKED } },
    },
    failed: {
      type: 'final',
      entry: { type: 'endSession', params: { text: null } },
    },
  },
});

export type ImConnectionMachine = typeof imConnectionMachine;
