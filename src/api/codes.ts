/**
 * The result codes and texts of SPEC §8, declared once for the client and the reference
 * server.
 */
export const SUCCESS = '0000';

export const ResultCode = {
  success: SUCCESS,
  /** Any request the server cannot decrypt, parse or validate (reference server). */
  invalidRequest: '1000',
  /** The app is older than the server accepts: toast and log out after 2 s. */
  updateRequired: '1004',
  /** Authentication failed: handed back as a value on the login call, else message and logout. */
  authFailed: '1005',
  /** An account with this name exists already (reference server). */
  accountExists: '1010',
  /**
   * A visitor asked for something only a signed-up person may do (SPEC §6: a visitor may log
   * in and register only); the message is TEXT_VISITOR_REFUSED (reference server).
   */
  visitorRefused: '1020',
  /**
   * Too many failed sign-ins (of the account or from the address), sign-ups or visitor entries
   * from one address: the message says how long to wait, from tooManyAttemptsText (reference server).
   */
  tooManyAttempts: '1429',
  /** The server is stopping (a restart): nothing was done; the message is TEXT_SERVER_RESTARTING (reference server). */
  serverRestarting: '1503',
  balanceInsufficient: '1080',
  /** Resolved with code and message (SPEC §8). */
  resolvedA: '2001',
  resolvedB: '1992',
  resolvedC: '1006',
} as const;

export const RESOLVED_WITH_MESSAGE: readonly string[] = ['2001', '1992', '1006'];

export const MESSAGE_DIAMOND_NOT_ENOUGH = 'diamond.not.enough';
export const MESSAGE_NO_MATCH_USER = 'no.match.user';

export const TEXT_UPDATE_REQUIRED = "Oops! We've updated something new. Re-enter and try our new feature!";
export const TEXT_VISITOR_REFUSED = 'Please sign up or log in to do that.';
/** A request body over its endpoint's limit (src/api/contract/endpoint.ts), answered with code 1000. */
export const TEXT_BODY_TOO_LARGE = 'The request is too large for the server to accept.';
export const TEXT_SERVER_RESTARTING = 'The server is restarting. Please try again in a moment.';

/** 'Too many attempts. Please try again in 15 minutes.': the wait rounded up to a unit a person reads. */
export function tooManyAttemptsText(waitMs: number): string {
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const wait = seconds < 60 ? unit(seconds, 'second')
    : seconds <= 2 * 3600 ? unit(Math.ceil(seconds / 60), 'minute')
      : unit(Math.ceil(seconds / 3600), 'hour');
  return `Too many attempts. Please try again in ${wait}.`;
}
export const TEXT_MALFORMED = 'The server sent a response the app could not read. Please try again.';

export const HTTP_TEXT: Readonly<Record<number, string>> = {
  401: 'Token invalid, please log in again',
  403: 'No Access',
  404: 'Request Address Error',
  500: 'Server Failure',
};
export const TEXT_NETWORK_FAILURE = 'Network Connection Failure';

/** Header names of the shell contract (SPEC §7 headers); documented in the README. */
export const Header = {
  loginToken: 'x-login-token',
  anchorToken: 'x-anchor-token',
  appId: 'x-app-id',
  appVersion: 'x-app-version',
  subscriptionKey: 'x-subscription-key',
} as const;

export const APP_VERSION = '1.0.34';
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Development transport key and IV shared by the client and the reference server. A
 * production build sets its own through VITE_AES_KEY / VITE_AES_IV (and the server through
 * AES_KEY / AES_IV); each must be exactly 16 bytes (SPEC §5).
 */
export const DEV_AES_KEY = 'a7F3kP9qZ2xW8mN4';
export const DEV_AES_IV = 'r5T1yU8iO3pL6kJ0';

/** Lowest app version the reference server accepts before answering 1004. */
export const MIN_APP_VERSION = '1.0.0';
