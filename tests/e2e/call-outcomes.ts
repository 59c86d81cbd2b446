/**
 * The call machine's outcomes and the shortest path to each, for the end-to-end tests that
 * drive them through the UI (call-paths.spec.ts). Generated from the machine itself with
 * `createPathModel` (machines/testing/paths.ts, `xstate/graph`): the same kind of sample and
 * stand-in events as call.paths.test.ts, one model per input (the user calls, the user calls
 * offline, the host is called). An outcome is how a call ends: the end state's status, hangup
 * reason and §8 text, and whether it was connected first (a hang-up before and after the
 * first remote frame are different stories to drive).
 */
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { initialTransition } from 'xstate';
import { CallApiError, MediaError } from '../../machines/ports/call.port';
import type { CallInfo } from '../../machines/ports/call.port';
import { SignalAction, SignalFailure, TEXT_PEER_UNAVAILABLE } from '../../machines/ports/signalling.port';
import type { CallSignal } from '../../machines/ports/signalling.port';
import { CallStatus, HangupReason, callMachine } from '../../machines/call/call.machine';
import type { CallContext, CallInput, CallOutcome } from '../../machines/call/call.machine';
import { afterEvent, createPathModel, stateNodesOf } from '../../machines/testing/paths';

const info: CallInfo = { channelId: 'ch1', yxAccid: 'yx-host', videoPrice: 30, nickname: 'Sofia' };
const signal = (action: number, payload?: Record<string, unknown>): AnyEventObject => ({
  type: 'signal.event',
  event: { type: 'signal', signal: { id: `s${action}`, action, channelId: 'ch1', from: 'peer', to: 'me', time: 1, ...(payload ? { payload } : {}) } },
});
const rtc = (type: string): AnyEventObject => ({ type: 'rtc.event', event: { type } });
const done = (id: string, output?: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error });

/**
 * Sample events. Where two events lead to the same outcome in as many steps, the one listed
 * first is the one the shortest path takes: the world's usual way comes first (a hang-up
 * signal before the peer's media leaving, a reject signal before the server's -3 type 1).
 */
export const samples: readonly AnyEventObject[] = [
  // The outgoing set-up (createCall ∥ camera, then the join): ready, what failed once the call existed, or createCall's refusal.
  done('setup', { info, failure: null }),
  fail('setup', new CallApiError('busy', 'busy')),
  fail('setup', new CallApiError('offline', 'offline')),
  fail('setup', new CallApiError('balance', 'diamond.not.enough')),
  done('setup', { info, failure: new MediaError('permissionDenied') }),
  done('setup', { info, failure: new Error('the media channel refused the join') }),
  done('accept'),
  fail('accept', new MediaError('permissionDenied')),
  done('peerCard', { nickname: 'Alex' }), fail('peerCard', new Error('no.match.user')),
  // A paying callee's price (none of the inputs below pays as a callee: call-payer.spec.ts drives that one).
  done('terms', { videoPrice: 24, listPrice: 30, callDiscount: 80, billingPeriodMs: 2_000, youPay: true, balance: 200 }),
  fail('terms', new Error('Network Connection Failure')),
  fail('accept', new Error('joinCall timed out')),
  // The ending tells the peer, leaves the media and tells the server (call-end.machine.ts), and ends either way.
  done('end'),
  // The ring finds the peer not connected (SPEC §8 'the user is currently unavaliable'): the same end as createCall's 2001.
  fail('ring', new SignalFailure('unavailable', TEXT_PEER_UNAVAILABLE)),
  fail('end', new Error('media already gone')),
  { type: afterEvent('ringTimeout', 'call.outgoing.ringing') },
  { type: afterEvent('ringTimeout', 'call.incoming.ringing') },
  { type: afterEvent('connectTimeout', 'call.connecting') },
  signal(SignalAction.accept), signal(SignalAction.reject), signal(SignalAction.reject, { busy: true }),
  signal(SignalAction.reject, { unavailable: true }),
  signal(SignalAction.hangup), signal(SignalAction.cancel),
  rtc('firstRemoteFrame'), rtc('connectionLost'), rtc('remoteLeft'),
  { type: 'system.callRefused', text: 'The other party has refused.' },
  { type: 'system.callIncome', amount: 30 }, { type: 'system.giftIncome', amount: 5 },
  { type: 'call.cancel' }, { type: 'call.accept' }, { type: 'call.reject' }, { type: 'call.hangup' },
];

const ring: CallSignal = { id: 'ring-1', action: SignalAction.videoCall, channelId: 'ch1', from: 'yx-user', to: 'yx-host', time: 1 };

/** Whose machine a path is of, and how its call starts. */
export const inputs = {
  'the user calls': { direction: 'out', online: true, isHost: false, account: 'yx-user', peer: { account: 'yx-host', userId: 100001 }, callType: 0 },
  'the user calls offline': { direction: 'out', online: false, isHost: false, account: 'yx-user', peer: { account: 'yx-host', userId: 100001 }, callType: 0 },
  'the host is called': { direction: 'in', online: true, isHost: true, account: 'yx-host', signal: ring },
} as const satisfies Record<string, CallInput>;
export type InputName = keyof typeof inputs;

export interface Outcome extends CallOutcome {
  /** The first remote frame arrived before the end. */
  connected: boolean;
}

export interface PathStep {
  event: EventObject;
  /** The machine's state when the event comes, and after it. */
  before: AnyMachineSnapshot;
  after: AnyMachineSnapshot;
}

export interface OutcomePath {
  input: InputName;
  outcome: Outcome;
  /** The test's name: the input and the outcome (see `outcomeName`). */
  name: string;
  steps: PathStep[];
}

const statusName = (status: number) => Object.entries(CallStatus).find(([, v]) => v === status)?.[0] ?? String(status);
const reasonName = (reason: number | null) => Object.entries(HangupReason).find(([, v]) => v === reason)?.[0] ?? String(reason);

/** e.g. "the user calls → connected, then hungUp (weakNetwork)", "the user calls → cancel: 'She is busy…'". */
export function outcomeName(input: string, o: Outcome): string {
  const reason = o.reason === null ? '' : ` (${reasonName(o.reason)})`;
  const text = o.text === null ? '' : `: '${o.text}'`;
  return `${input} → ${o.connected ? 'connected, then ' : ''}${statusName(o.status)}${reason}${text}`;
}

const outcomeOf = (snapshot: AnyMachineSnapshot): Outcome => {
  const c = snapshot.context as CallContext;
  const o = c.outcome ?? { status: c.status, reason: null, text: null };
  return { status: o.status, reason: o.reason, text: o.text, connected: c.connectedAt > 0 };
};

/** The shortest path to every outcome of every input, shortest first within an input. */
export function outcomePaths(): OutcomePath[] {
  const out: OutcomePath[] = [];
  for (const [name, input] of Object.entries(inputs) as [InputName, CallInput][]) {
    const { model } = createPathModel(callMachine, {
      events: samples,
      input,
      serializeContext: (context) => {
        const c = context as CallContext;
        return [c.status, c.outcome, c.connectedAt > 0, c.channelId !== null];
      },
    });
    const [initial] = initialTransition(callMachine, input);
    const byOutcome = new Map<string, OutcomePath>();
    const paths = model.getShortestPaths({ allowDuplicatePaths: true } as never) as unknown as {
      steps: { event: EventObject; state: AnyMachineSnapshot }[];
      state: AnyMachineSnapshot;
    }[];
    for (const path of paths) {
      if (path.state.status !== 'done') continue;
      // The first step of a generated path is the initial state itself (xstate.init).
      const steps = path.steps.filter((s) => s.event.type !== 'xstate.init');
      const outcome = outcomeOf(path.state);
      const key = JSON.stringify(outcome);
      const existing = byOutcome.get(key);
      if (existing && existing.steps.length <= steps.length) continue;
      byOutcome.set(key, {
        input: name,
        outcome,
        name: outcomeName(name, outcome),
        steps: steps.map((s, i) => ({ event: s.event, before: i === 0 ? (initial as AnyMachineSnapshot) : steps[i - 1]!.state, after: s.state })),
      });
    }
    out.push(...[...byOutcome.values()].sort((a, b) => a.steps.length - b.steps.length));
  }
  return out;
}

/** Every event type some transition of the machine takes (delays and actor results included). */
export function eventTypesTaken(): string[] {
  const types = new Set<string>();
  for (const node of stateNodesOf(callMachine)) for (const type of node.transitions.keys()) types.add(type);
  return [...types].sort();
}

/** A short label of an event, for the driver table: `signal.reject(busy)`, `error.setup(balance)`, `done.setup(permissionDenied)`, `after.ringTimeout`. */
export function eventKey(event: EventObject): string {
  const e = event as AnyEventObject;
  if (e.type === 'signal.event') {
    const s = (e.event as { signal?: CallSignal }).signal;
    const action = Object.entries(SignalAction).find(([, v]) => v === s?.action)?.[0] ?? String(s?.action);
    const why = s?.payload?.busy === true ? '(busy)' : s?.payload?.unavailable === true ? '(unavailable)' : '';
    return `signal.${action}${why}`;
  }
  if (e.type === 'rtc.event') return `rtc.${String((e.event as { type: string }).type)}`;
  const detail = (error: unknown) => (error instanceof CallApiError ? error.refusal
    : error instanceof MediaError || error instanceof SignalFailure ? error.kind : 'error');
  if (e.type.startsWith('xstate.done.actor.')) {
    // The set-up's failure once the call existed: `done.setup(permissionDenied)`.
    const failure = (e.output as { failure?: unknown } | undefined)?.failure ?? null;
    return `done.${e.type.slice('xstate.done.actor.'.length)}${failure === null ? '' : `(${detail(failure)})`}`;
  }
  if (e.type.startsWith('xstate.error.actor.')) return `error.${e.type.slice('xstate.error.actor.'.length)}(${detail(e.error)})`;
  if (e.type.startsWith('xstate.after.')) return `after.${e.type.split('.')[2]!}`;
  return e.type;
}
