/**
 * The session's calls' shapes (input, context, events, what they ask the session for),
 * declared once for the calls machine, the session, its composition and tests.
 */
import type { SnapshotFrom } from 'xstate';
import type { CallInput, CallMachine, CallPeer, CallSummary } from '../call/call.machine';
import type { CallSignal } from '../ports/signalling.port';
import { peerAccountOf } from '../shared/chat-peers';
import type { SystemEvent } from '../system-messages/system-messages';
import type { CallRatingMachine } from '../call/call-rating.machine';
import type { TalkMachine } from '../talk/talk.machine';

/** A call and its chat with the peer, composed with their ports (the per-use module, loaded with the first call). */
export interface CallChildren {
  call: CallMachine;
  chat: TalkMachine;
  /** The rating of a call that took place (SPEC §3 Call rating), spawned in the calls' end state. */
  rating: CallRatingMachine;
}

export interface CallsInput {
  isHost: boolean;
  /** The IM account of the signed-in person: the call's, and its chat's. */
  account: string;
}

export interface CallsContext extends CallsInput {
  /** What the call under way starts with, as the tap or the ring said; null while idle. */
  callInput: CallInput | null;
  /** How the last call ended, until the end screen is dismissed. */
  lastCall: CallSummary | null;
  /**
   * The channel of the call the server last said is ringing for this person (SPEC §4 -3 type 0,
   * "the target channel"), until its ring comes or its call ends here; null otherwise.
   */
  targetChannel: string | null;
  /** The rating's logic, which came with the call's code (the end state spawns it); null before a call's code came. */
  ratingLogic: CallRatingMachine | null;
}

export { peerAccountOf };

/** The peer of the call under way, from the loading of its code to its end; null while idle. */
export const callPeerOf = (context: CallsContext): string | null => (context.callInput ? peerAccountOf(context.callInput) : null);

/** What the screens and the signalling link ask of the calls; the session passes them on. */
export type CallsIntent =
  /** The person taps call (SPEC §2 call button on /talk); `online` as the device says now. */
  | { type: 'call.start'; peer: CallPeer; callType: number; online: boolean }
  /** Someone calls (a ring signal from signalling). */
  | { type: 'call.ringing'; signal: CallSignal }
  /** The end screen is closed. */
  | { type: 'call.dismiss' };

/** A system message of SPEC §4 whose owner is the call (the session's table says so): the running call's. */
export type CallSystemMessage = { type: 'call.systemMessage'; event: SystemEvent };

export type CallsEvent =
  | CallsIntent
  | CallSystemMessage
  /** The call's and its chat's code (per-use.actors.ts), loaded when a call starts or rings and once it is connected. */
  | { type: 'xstate.done.actor.loadCall'; output: CallChildren }
  | { type: 'xstate.error.actor.loadCall'; error: unknown }
  | { type: 'xstate.done.actor.loadCallChat'; output: TalkMachine }
  | { type: 'xstate.error.actor.loadCallChat'; error: unknown }
  /** The call child's snapshots (it is spawned with syncSnapshot), and its end. */
  | { type: 'xstate.snapshot.call'; snapshot: SnapshotFrom<CallMachine> }
  | { type: 'xstate.done.actor.call'; output: CallSummary };

/** What the calls ask the session for: a toast, a log line. */
export type CallsOutput =
  | { type: 'child.toast'; text: string }
  | { type: 'child.log'; text: string };
