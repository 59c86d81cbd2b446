/** Fresh tokens for the realtime services (they expire): each call asks the server again. */
export interface TokensPort {
  /** A new IM token, when the IM service refused the one the session started with. */
  refreshIm(): Promise<string>;
  /** The signalling (RTM) login token. */
  rtm(): Promise<string>;
}
