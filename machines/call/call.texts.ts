/**
 * The call messages of SPEC §8 (and §5: no call starts offline), on their own so that what only
 * needs a text (the session telling why a call did not start) does not load the call's code.
 */
export const CallText = {
  offline: 'Network connection error. Please reconnect',
  unavailable: "She's not available right now;you can call another girl instead.",
  busy: 'She is busy on the line. You can call her later.',
  refused: 'The other party has refused.',
  userBusy: 'The user is busy.',
  error: 'Error!',
  callError: 'CallError. Please kill the app and try again.',
  serverError: 'Error.Unable to connect to server, Please kill the app and try again',
  /** SPEC §8 1080 'diamond.not.enough', as the payer reads it (the end screen offers a recharge). */
  balance: 'You do not have enough diamonds for this call.',
} as const;

/** SPEC §8 1080 as the host reads it: the user she called (who pays) cannot pay the call. */
export const peerShortOfDiamonds = (nickname: string | undefined): string =>
  `${nickname?.trim() || 'The user'} does not have enough diamonds for this call.`;
