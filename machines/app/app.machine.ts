/**
 * Root app actor: the session of SPEC §4 Login and the host / restricted mode of §6.
 *
 *   booting ─┬─ open params ──────────────▶ loadingProfile ─▶ signedIn.{host|restricted} | visiting
 *            ├─ public path (/login …) ───▶ signedOut.idle ◀─┐       │ logOut, 1004, 1005, 401
 *            └─ otherwise ─▶ clearingSession ─────────────────┘  signingOut ◀┘ (a visitor: also sign up / log in)
 *   signedOut: idle ⇄ submitting (sign in, register or visitor entry) ─▶ loadingProfile
 *   loadingProfile ─error─▶ profileFailed (retry / log out)
 *
 * While signed in it runs the `session` child (IM connection, presence, banner, idle host);
 * a logout first lets the session say offline (signedIn.leaving). A visitor (SPEC §6: login and
 * register only) browses in `visiting`, where no session runs: the hub refuses a visitor's IM
 * login, which would end the session, and there is nothing for presence or signalling to say. It owns the unread count
 * behind the News badge (SPEC §2), fed by the session. Navigation, toasts and log lines
 * leave the machine as emitted events; src/app acts on them.
 */
import { assertEvent, assign, emit, enqueueActions, fromPromise, sendTo } from 'xstate';
import { setup } from '../setup';
import { sessionMachine } from '../session/session.machine';
import type { SessionOutput } from '../session/session.machine';
import type {
  Credentials, MineInfo, Registration, SignInOutcome, StoredAuth,
} from '../ports/session.port';
import { isHostType } from '../codes/user.codes';
import { LOGIN_PATH, homeFor, isDeepLink, isPublicPath, pathForMode } from './app.paths';
import { textOf } from '../shared/error-text';

export interface AppInput {
  /** Auth data from the native shell's open parameters (or kept from an earlier open). */
  openParams: StoredAuth | null;
  /** The path (with its query) the app was opened on. */
  path: string;
}

export interface AppContext {
  auth: StoredAuth | null;
  profile: MineInfo | null;
  unread: number;
  /** Why the last sign-in, registration or visitor entry did not go through. */
  formError: string | null;
  /** Why the profile could not be loaded. */
  loadError: string | null;
  /** The path the app was opened on; a deep link is visited again once the session settles. */
  entryPath: string;
  /** Where a visitor who chose to sign up or log in goes once signed out; null: /login. */
  leaveTo: VisitorExit | null;
}

/** Where a visitor leaves for (SPEC §6: login and register only). */
export type VisitorExit = '/login' | '/register';

export type SessionRejection = 'expired' | 'updateRequired';

export type AppEvent =
  | { type: 'login.submit'; credentials: Credentials }
  | { type: 'register.submit'; registration: Registration }
  | { type: 'visitor.enter' }
  /** A visitor chose to sign up or log in: the visitor's session ends first. */
  | { type: 'visitor.leave'; to: VisitorExit }
  | { type: 'session.logOut' }
  | { type: 'session.retry' }
  | { type: 'api.sessionRejected'; reason: SessionRejection }
  /** Facts from the page, passed on to the session. */
  | { type: 'app.hidden' }
  | { type: 'app.visible' }
  | { type: 'user.input' }
  /** The person saved their own profile (/profile): the parts shown around the app follow. */
  | { type: 'profile.updated'; changes: Pick<MineInfo, 'nickname' | 'icon' | 'picList'> }
  | SessionOutput;

export type AppEmitted =
  | { type: 'navigate'; to: string }
  | { type: 'toast'; text: string }
  | { type: 'log'; text: string }
  /** SPEC §4 system message 58: confirm, then reload as a host. */
  | { type: 'becameHost' }
  /** SPEC §4 system message -4: someone followed the person (the follower count goes up). */
  | { type: 'followerAdded' }
  /** A page outside the app (a payment provider's): the app is left for it. */
  | { type: 'openPage'; url: string };

/** The three ways in of SPEC §4/§6: sign in, register, or enter as a visitor. */
export type EntryRequest =
  | { kind: 'login'; credentials: Credentials }
  | { kind: 'register'; registration: Registration }
  | { kind: 'visit' };

function entryRequestOf(event: AppEvent): EntryRequest {
  switch (event.type) {
    case 'login.submit': return { kind: 'login', credentials: event.credentials };
    case 'register.submit': return { kind: 'register', registration: event.registration };
    default: return { kind: 'visit' };
  }
}

/** SPEC §8: what a sign-in or a profile load that failed without a message of its own says. */
const TEXT_NETWORK_FAILURE = 'Network Connection Failure';

export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as AppContext,
    events: {} as AppEvent,
    emitted: {} as AppEmitted,
    children: {} as { forget: 'forget'; enter: 'enter'; loadProfile: 'loadProfile'; session: 'session' },
  },
  actors: {
    enter: fromPromise<SignInOutcome, EntryRequest>(() => Promise.reject(new Error('enter not provided'))),
    loadProfile: fromPromise<MineInfo, StoredAuth>(() => Promise.reject(new Error('loadProfile not provided'))),
    forget: fromPromise<void, void>(() => Promise.reject(new Error('forget not provided'))),
    session: sessionMachine,
  },
  guards: {
    hasOpenParams: ({ context }) => context.auth !== null,
    openedOnPublicPath: ({ context }) => isPublicPath(context.entryPath),
    signedInOutcome: (_, outcome: SignInOutcome) => outcome.kind === 'signedIn',
    isHost: (_, profile: MineInfo) => isHostType(profile.userType),
    isVisitor: (_, profile: MineInfo) => profile.isVisitor === true,
    updateRequired: ({ event }) => {
      assertEvent(event, 'api.sessionRejected');
      return event.reason === 'updateRequired';
    },
  },
  delays: {
    /** SPEC §8 1004: the toast stays 2 s before the logout. */
    updateNoticeDelay: 2000,
  },
  actions: {
    goToLogin: emit(({ context }) => ({ type: 'navigate' as const, to: context.leaveTo ?? LOGIN_PATH })),
    landHome: emit(({ context }) => {
      const mode = isHostType(context.profile?.userType) ? 'host' : 'restricted';
      return {
        type: 'navigate' as const,
        to: isDeepLink(context.entryPath) ? pathForMode(mode, context.entryPath) : homeFor(mode),
      };
    }),
    clearSession: assign({ auth: null, profile: null, unread: 0, loadError: null, leaveTo: null }),
    setUnread: assign({
      unread: (_, params: { count: number }) => Math.max(0, Math.floor(params.count)),
    }),
  },
}).createMachine({
  id: 'app',
  context: ({ input }) => ({
    auth: input.openParams,
    profile: null,
    unread: 0,
    formError: null,
    loadError: null,
    entryPath: input.path,
    leaveTo: null,
  }),
  initial: 'booting',
  states: {
    booting: {
      always: [
        { guard: 'hasOpenParams', target: 'loadingProfile' },
        { guard: 'openedOnPublicPath', target: 'signedOut' },
        { target: 'clearingSession' },
      ],
    },
    clearingSession: {
      invoke: {
        id: 'forget',
        src: 'forget',
        onDone: { target: 'signedOut', actions: 'goToLogin' },
        onError: { target: 'signedOut', actions: 'goToLogin' },
      },
    },
    signedOut: {
      entry: 'clearSession',
      initial: 'idle',
      states: {
        idle: {
          on: {
            'login.submit': 'submitting',
            'register.submit': 'submitting',
            'visitor.enter': 'submitting',
          },
        },
        /** The server is checking a sign-in, registration or visitor entry; further taps are ignored. */
        submitting: {
          entry: assign({ formError: null }),
          invoke: {
            id: 'enter',
            src: 'enter',
            input: ({ event }) => entryRequestOf(event),
            onDone: [
              {
                guard: { type: 'signedInOutcome', params: ({ event }) => event.output },
                target: '#app.loadingProfile',
                actions: assign({ auth: ({ event }) => (event.output.kind === 'signedIn' ? event.output.auth : null) }),
              },
              {
                target: 'idle',
                actions: assign({
                  formError: ({ event }) => (event.output.kind === 'refused' ? event.output.message : null),
                }),
              },
            ],
            onError: {
              target: 'idle',
              actions: assign({ formError: ({ event }) => textOf(event.error, TEXT_NETWORK_FAILURE) }),
            },
          },
        },
      },
    },
    loadingProfile: {
      entry: assign({ loadError: null }),
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        input: ({ context }) => context.auth!,
        onDone: [
          {
            guard: { type: 'isVisitor', params: ({ event }) => event.output },
            target: 'visiting',
            actions: [assign({ profile: ({ event }) => event.output }), 'landHome'],
          },
          {
            guard: { type: 'isHost', params: ({ event }) => event.output },
            target: 'signedIn.host',
            actions: [assign({ profile: ({ event }) => event.output }), 'landHome'],
          },
          {
            target: 'signedIn.restricted',
            actions: [assign({ profile: ({ event }) => event.output }), 'landHome'],
          },
        ],
        onError: {
          target: 'profileFailed',
          actions: assign({ loadError: ({ event }) => textOf(event.error, TEXT_NETWORK_FAILURE) }),
        },
      },
      on: {
        'api.sessionRejected': [
          { guard: 'updateRequired', target: 'closingForUpdate' },
          { target: 'signingOut' },
        ],
      },
    },
    profileFailed: {
      on: {
        'session.retry': 'loadingProfile',
        'session.logOut': 'signingOut',
        'api.sessionRejected': [
          { guard: 'updateRequired', target: 'closingForUpdate' },
          { target: 'signingOut' },
        ],
      },
    },
    signedIn: {
      // Once landed, a later sign-in (after a logout) goes to the role's home.
      entry: assign({ entryPath: LOGIN_PATH }),
      invoke: {
        id: 'session',
        src: 'session',
        input: ({ context }) => ({
          isHost: isHostType(context.profile?.userType),
          isVip: context.profile?.vipInfo.isVip ?? false,
          account: context.profile?.yxAccid ?? '',
          token: context.profile?.imToken ?? '',
          // How the person shows in live rooms (their chat-room entry: nick, avatar, level).
          ...(context.profile ? {
            profile: {
              nick: context.profile.nickname, userLevel: context.profile.userLevel, isNewUser: context.profile.isNewUser,
              ...(context.profile.icon ? { avatar: context.profile.icon } : {}),
            },
          } : {}),
        }),
        // The session ended by itself (kicked elsewhere, IM unrecoverable) or after leaving.
        onDone: {
          target: 'signingOut',
          actions: enqueueActions(({ enqueue, event }) => {
            const { endText } = event.output as { endText: string | null };
            if (endText) enqueue.emit({ type: 'toast', text: endText });
          }),
        },
      },
      initial: 'host',
      states: {
        host: {},
        restricted: {},
        /** Logging out: the session says offline first, then finishes. */
        leaving: {
          entry: sendTo('session', { type: 'session.leave' }),
        },
      },
      on: {
        'session.unread': { actions: { type: 'setUnread', params: ({ event }) => ({ count: event.count }) } },
        'session.navigate': { actions: emit(({ event }) => ({ type: 'navigate' as const, to: event.to })) },
        'session.toast': { actions: emit(({ event }) => ({ type: 'toast' as const, text: event.text })) },
        'session.log': { actions: emit(({ event }) => ({ type: 'log' as const, text: event.text })) },
        'session.becameHost': { actions: emit({ type: 'becameHost' as const }) },
        'session.followerAdded': { actions: emit({ type: 'followerAdded' as const }) },
        'session.openPage': { actions: emit(({ event }) => ({ type: 'openPage' as const, url: event.url })) },
        // A VIP bought: the profile shown around the app says so (SPEC §4 "refreshes the profile").
        'session.vip': {
          actions: assign({ profile: ({ context, event }) => (context.profile ? { ...context.profile, vipInfo: { ...context.profile.vipInfo, isVip: event.isVip } } : null) }),
        },
        'profile.updated': {
          actions: assign({ profile: ({ context, event }) => (context.profile ? { ...context.profile, ...event.changes } : null) }),
        },
        'app.hidden': { actions: sendTo('session', ({ event }) => event) },
        'app.visible': { actions: sendTo('session', ({ event }) => event) },
        'user.input': { actions: sendTo('session', ({ event }) => event) },
        'session.logOut': '.leaving',
        'api.sessionRejected': [
          { guard: 'updateRequired', target: 'closingForUpdate' },
          { target: 'signingOut' },
        ],
      },
    },
    /** A visitor browses what the server lets a visitor read; acting asks them to sign up or log in (visitor.leave). */
    visiting: {
      entry: assign({ entryPath: LOGIN_PATH }),
      on: {
        'visitor.leave': { target: 'signingOut', actions: assign({ leaveTo: ({ event }) => event.to }) },
        'session.logOut': 'signingOut',
        'api.sessionRejected': [
          { guard: 'updateRequired', target: 'closingForUpdate' },
          { target: 'signingOut' },
        ],
      },
    },
    /** SPEC §8 1004: the "we've updated something" toast is showing; log out once it has been read. */
    closingForUpdate: {
      after: { updateNoticeDelay: 'signingOut' },
      on: { 'session.logOut': 'signingOut' },
    },
    signingOut: {
      invoke: {
        id: 'forget',
        src: 'forget',
        onDone: { target: 'signedOut', actions: 'goToLogin' },
        onError: { target: 'signedOut', actions: 'goToLogin' },
      },
    },
  },
});

export type AppMachine = typeof appMachine;
