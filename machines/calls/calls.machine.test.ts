/**
 * The calls' guard and context updates on their own (SPEC §4 App call state): pure transitions
 * of the machine, no child running.
 */
import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import type { AnyEventObject } from 'xstate';
import { SignalAction } from '../ports/signalling.port';
import type { CallSignal } from '../ports/signalling.port';
import { callMachine } from '../call/call.machine';
import { callRatingMachine } from '../call/call-rating.machine';
import { talkMachine } from '../talk/talk.machine';
import { callPeerOf, callsMachine, peerAccountOf } from './calls.machine';
import type { CallsContext } from './calls.machine';
import { selectCallShown, selectLastCall } from '../session/session.selectors';

const ring: CallSignal = { id: 'r1', action: SignalAction.audioCall, channelId: 'ch9', from: 'yx-caller', to: 'me', time: 1 };
const tap = { type: 'call.start', peer: { account: 'yx-host', userId: 100001 }, callType: 0, online: true } as const;
const summary = { status: 2, reason: null, text: null, channelId: 'ch9', callType: 1, direction: 'in', peer: { account: 'yx-caller' }, answerTime: 0 };

/** The calls' snapshot after these events, from the start. */
function after(...events: AnyEventObject[]) {
  let [snapshot] = initialTransition(callsMachine, { isHost: true, account: 'me' });
  for (const event of events) [snapshot] = transition(callsMachine, snapshot, event as never);
  return snapshot;
}
const loaded = { type: 'xstate.done.actor.loadCall', output: { call: callMachine, chat: talkMachine, rating: callRatingMachine } };
/** A call snapshot as syncSnapshot sends it. */
const callSnapshot = (matches: (value: unknown) => boolean) => ({ type: 'xstate.snapshot.call', snapshot: { status: 'active', matches } });
const inState = (value: unknown) => callSnapshot((v) => JSON.stringify(v) === JSON.stringify(value));

describe('the call\'s peer', () => {
  it('is the tapped person for a call out, the ringing one for a call in', () => {
    expect(peerAccountOf({ direction: 'out', online: true, isHost: false, account: 'me', peer: { account: 'yx-host' }, callType: 0 })).toBe('yx-host');
    expect(peerAccountOf({ direction: 'in', online: true, isHost: true, account: 'me', signal: ring })).toBe('yx-caller');
  });

  it('is known from the loading of the call\'s code to its end, and not while idle', () => {
    expect(callPeerOf(after().context)).toBeNull();
    expect(callPeerOf(after(tap).context)).toBe('yx-host');
    expect(callPeerOf(after({ type: 'call.ringing', signal: ring }, loaded).context)).toBe('yx-caller');
    expect(callPeerOf(after({ type: 'call.ringing', signal: ring }, loaded, { type: 'xstate.done.actor.call', output: summary }).context)).toBeNull();
  });
});

describe('what a call starts with', () => {
  it('takes a tap\'s peer, type and whether the device was online; a ring\'s signal, online', () => {
    expect(after(tap).context.callInput).toEqual({ direction: 'out', online: true, isHost: true, account: 'me', peer: tap.peer, callType: 0 });
    expect(after({ type: 'call.ringing', signal: ring }).context.callInput).toEqual({ direction: 'in', online: true, isHost: true, account: 'me', signal: ring });
  });

  it('keeps a second ring from replacing the call under way', () => {
    const other = { ...ring, from: 'yx-other' };
    expect(callPeerOf(after(tap, { type: 'call.ringing', signal: other }).context)).toBe('yx-host');
    expect(callPeerOf(after(tap, loaded, { type: 'call.ringing', signal: other }).context)).toBe('yx-host');
  });
});

describe('[§4 App call state] the call\'s chat waits for the call to be connected', () => {
  it.each([
    ['calling (ringing in)', { incoming: 'ringing' }],
    ['calling (ringing out)', { outgoing: 'ringing' }],
    ['callConnecting (accepting)', { incoming: 'accepting' }],
    ['callConnecting', 'connecting'],
  ])('stays waiting while the call is %s', (_, value) => {
    expect(after(tap, loaded, inState(value)).matches({ running: 'chatWaiting' })).toBe(true);
  });

  it('loads once the call is connected, and a call that is no longer active does not count', () => {
    expect(after(tap, loaded, inState('connected')).matches({ running: 'chatLoading' })).toBe(true);
    const ended = { type: 'xstate.snapshot.call', snapshot: { status: 'done', matches: (v: unknown) => v === 'connected' } };
    expect(after(tap, loaded, ended).matches({ running: 'chatWaiting' })).toBe(true);
  });
});

describe('the end screen', () => {
  const ended = after(tap, loaded, { type: 'xstate.done.actor.call', output: summary });

  it('shows how the last call ended until it is dismissed or the next call comes', () => {
    expect(selectLastCall(ended)).toEqual(summary);
    expect(selectCallShown(ended)).toBe(true);
    const dismissed = transition(callsMachine, ended, { type: 'call.dismiss' })[0];
    expect(selectLastCall(dismissed)).toBeNull();
    expect(selectCallShown(dismissed)).toBe(false);
    const next = transition(callsMachine, ended, { type: 'call.ringing', signal: ring })[0];
    expect((next.context as CallsContext).lastCall).toBeNull();
  });

  it('the call screens show from a call\'s loading on, and not with no call and no end screen', () => {
    expect(selectCallShown(after())).toBe(false);
    expect(selectCallShown(after(tap))).toBe(true);
    expect(selectCallShown(after(tap, loaded))).toBe(true);
    expect(selectCallShown(undefined)).toBe(false);
  });
});

describe('[§4 -3 type 0] the target channel', () => {
  const target = (channelId: string) => ({ type: 'call.systemMessage', event: { type: 'system.callTargetChannel', channelId } });
  const warning = (channelId: string) => ({ type: 'call.systemMessage', event: { type: 'system.callWarning', channelId, text: 'You missed a call from Alex.' } });

  it('is the channel the server last named as ringing here, until its ring comes or its call ends here', () => {
    expect(after().context.targetChannel).toBeNull();
    expect(after(target('ch8'), target('ch9')).context.targetChannel).toBe('ch9');
    expect(after(target('ch9'), { type: 'call.ringing', signal: ring }).context.targetChannel).toBeNull();
    // Named after its ring came (IM can be slower than signalling): forgotten as that call ends.
    const named = after({ type: 'call.ringing', signal: ring }, loaded, target('ch9'));
    expect(named.context.targetChannel).toBe('ch9');
    expect(transition(callsMachine, named, { type: 'xstate.done.actor.call', output: summary } as never)[0].context.targetChannel).toBeNull();
    // Another channel's ring leaves it.
    expect(after(target('ch7'), { type: 'call.ringing', signal: ring }).context.targetChannel).toBe('ch7');
  });

  it('makes a warning of it, while no call of it runs, the person\'s: a call that never rang here (its ring was lost)', () => {
    const [snapshot, actions] = transition(callsMachine, after(target('ch9')), warning('ch9') as never);
    expect(snapshot.context.targetChannel).toBeNull();
    expect(actions).toContainEqual(expect.objectContaining({ params: { event: { type: 'child.toast', text: 'You missed a call from Alex.' } } }));
    // A warning of another channel is only logged.
    const [, other] = transition(callsMachine, after(target('ch9')), warning('ch8') as never);
    expect(other).toContainEqual(expect.objectContaining({
      params: { event: { type: 'child.log', text: 'System message for call, which is not running: system.callWarning' } },
    }));
  });
});
