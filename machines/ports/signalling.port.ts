/** The call-signalling port (SPEC §3 Call enums: signalling actions), over Agora RTM or the local hub. */

import { SignalAction } from '../codes/call.codes';
// Declared in machines/codes/call.codes.ts; re-exported for the port's adapters and fakes.
export { SignalAction } from '../codes/call.codes';

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
 * The signalling port's events as machines take them (ARCHITECTURE.md: flat facts named
 * `source.pastTense`): one per action of a signal, with its channel, and the link's own.
 */
export type SignalFact =
  /** A call rang (video 0 or audio 10). */
  | { type: 'signal.rang'; signal: CallSignal }
  | { type: 'signal.accepted'; channelId: string }
  /** Turned down; `busy`: she is in another call, `unavailable`: taking it failed on her side. */
  | { type: 'signal.rejected'; channelId: string; busy: boolean; unavailable: boolean }
  | { type: 'signal.cancelled'; channelId: string }
  | { type: 'signal.hungUp'; channelId: string }
  | { type: 'signal.disconnected' }
  | { type: 'signal.connected' };

/** The fact of a signalling event; null for a signal of no known action (its payload is untrusted, so is its action). */
export function signalFact(event: SignalEvent): SignalFact | null {
  if (event.type === 'disconnected') return { type: 'signal.disconnected' };
  if (event.type === 'connected') return { type: 'signal.connected' };
  const { signal } = event;
  const { channelId } = signal;
  switch (signal.action) {
    case SignalAction.videoCall:
    case SignalAction.audioCall: return { type: 'signal.rang', signal };
    case SignalAction.accept: return { type: 'signal.accepted', channelId };
    case SignalAction.reject:
      return { type: 'signal.rejected', channelId, busy: signal.payload?.busy === true, unavailable: signal.payload?.unavailable === true };
    case SignalAction.cancel: return { type: 'signal.cancelled', channelId };
    case SignalAction.hangup: return { type: 'signal.hungUp', channelId };
    default: return null;
  }
}

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
