/** The message-service codes of SPEC §8 (IM error codes), declared once. */
export const ImCode = {
  /** Refresh the token, then log in again. */
  tokenExpired: -10005,
  tokenInvalid: -10026,
  /** Log in again. */
  linkLost: -10002,
  loginTimeout: -11024,
  serverBusy: -11026,
  loginConflict: -11028,
  /** The peer refused the message (blocked): the message is marked refused. */
  refused: 7101,
  /**
   * Not a service code: the service could not be reached at all (no network, server
   * down or restarting). Nobody refused the login, so it does not count as a failed
   * attempt: the connection waits and tries again (see imConnection's `offline`).
   */
  unreachable: -1,
} as const;
export type ImCode = (typeof ImCode)[keyof typeof ImCode];

export const TOKEN_REFRESH_CODES: readonly number[] = [ImCode.tokenExpired, ImCode.tokenInvalid];
export const RELOGIN_CODES: readonly number[] = [ImCode.linkLost, ImCode.loginTimeout, ImCode.serverBusy, ImCode.loginConflict];
