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

export interface SignallingPort {
  login(account: string, token: string): Promise<void>;
  logout(): Promise<void>;
  /** Rejects when the peer cannot be reached. */
  send(to: string, signal: { action: SignalAction; channelId: string; payload?: Record<string, unknown> }): Promise<CallSignal>;
  subscribe(listener: (event: SignalEvent) => void): () => void;
}
