/**
 * The session's calls' shapes (input, context, events, what they ask the session for),
 * declared once for the calls machine, the session, its composition and tests.
 */
import type { SnapshotFrom } from 'xstate';
import type { CallInput, CallMachine, CallPeer, CallSummary } from '../call/call.machine';
import type { CallSignal } from '../ports/signalling.port';
import type { SystemEvent } from '../system-messages/system-messages';
import type { TalkEvent } from '../talk/talk.machine';
import type { CallChildren, TalkLogic } from './per-use.actors';

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
}

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

/** What the session passes on for the call's chat: its peer's messages, the IM connection back, a send's answer. */
export type CallChatEvent = Extract<TalkEvent, { type: 'talk.incoming' | 'talk.connected' | 'talk.sent' | 'talk.sendFailed' }>;

export type CallsEvent =
  | CallsIntent
  | CallChatEvent
  | CallSystemMessage
  /** The call's and its chat's code (per-use.actors.ts), loaded when a call starts or rings and once it is connected. */
  | { type: 'xstate.done.actor.loadCall'; output: CallChildren }
  | { type: 'xstate.error.actor.loadCall'; error: unknown }
  | { type: 'xstate.done.actor.loadCallChat'; output: TalkLogic }
  | { type: 'xstate.error.actor.loadCallChat'; error: unknown }
  /** The call child's snapshots (it is spawned with syncSnapshot), and its end. */
  | { type: 'xstate.snapshot.call'; snapshot: SnapshotFrom<CallMachine> }
  | { type: 'xstate.done.actor.call'; output: CallSummary };

/** What the calls ask the session for: a toast, a log line, a ring turned down as busy. */
export type CallsOutput =
  | { type: 'child.toast'; text: string }
  | { type: 'child.log'; text: string }
  | { type: 'child.busy'; signal: CallSignal };
