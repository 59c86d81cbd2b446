/** The call-signalling port (SPEC §3 Call enums: signalling actions), over Agora RTM or the local hub. */

export const SignalAction = {
  videoCall: 0,
  cancel: 1,
  accept: 2,
  reject: 3,
  hangup: 4,
  audioCall: 10,
} as const;
export type SignalAction = (typeof SignalAction)[keyof typeof SignalAction];

export interface CallSignal {
  /** Unique per signal, so a redelivered signal is recognised. */
  id: string;
  action: SignalAction;
  channelId: string;
  from: string;
  to: string;
  time: number;
  /** Extra call facts (price, nickname, …); untrusted. */
  payload?: Record<string, unknown>;
}

export type SignalEvent =
  | { type: 'signal'; signal: CallSignal }
  | { type: 'disconnected' }
  | { type: 'connected' };

/**
 * Why a signal could not be sent: the peer is not connected to signalling (`unavailable`, SPEC
 * §8's call failure 'the user is currently unavaliable'), this side is not (`disconnected`: not
 * logged in, the link dropped, no answer in time), or the service refused it (`refused`).
 */
export type SignalFailureKind = 'unavailable' | 'disconnected' | 'refused';

/** SPEC §8: the call failure of a peer who cannot be reached (its words, typo included; never shown as such). */
export const TEXT_PEER_UNAVAILABLE = 'the user is currently unavaliable';

export class SignalFailure extends Error {
  override name = 'SignalFailure';
  constructor(readonly kind: SignalFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface SignallingPort {
  login(account: string, token: string): Promise<void>;
  logout(): Promise<void>;
  /** Rejects with SignalFailure when the signal cannot go: the peer cannot be reached, this side is not connected, or it is refused. */
  send(to: string, signal: { action: SignalAction; channelId: string; payload?: Record<string, unknown> }): Promise<CallSignal>;
  subscribe(listener: (event: SignalEvent) => void): () => void;
}
