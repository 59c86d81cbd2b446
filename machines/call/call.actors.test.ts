/** The call's composition over fake ports: SPEC §9 joinCall 3 s, room preparation retried once, cleanup always. */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { CallApiPort, CallInfo, RtcEvent, RtcPort } from '../ports/call.port';
import type { SignallingPort } from '../ports/signalling.port';
import { SignalAction } from '../ports/signalling.port';
import { flush } from '../testing/paths';
import { composeCall, retryOnce } from './call.actors';
import { CallStatus, CallText, JOIN_TIMEOUT_MS } from './call.machine';

function fakes(over: { joinCall?: () => Promise<void>; join?: () => Promise<void> } = {}) {
  const log: string[] = [];
  const rtcListeners = new Set<(e: RtcEvent) => void>();
  const api: CallApiPort = {
    createCall: async () => ({ channelId: 'ch1', yxAccid: 'yx-host', videoPrice: 60, nickname: 'Sofia' } satisfies CallInfo),
    joinCall: over.joinCall ?? (async () => { log.push('joinCall'); }),
    endCall: async (channelId, reason) => { log.push(`endCall ${channelId} ${reason}`); },
    rate: async () => {},
  };
  const rtc: RtcPort = {
    prepare: async () => { log.push('prepare'); },
    join: over.join ?? (async () => { log.push('join'); }),
    leave: async () => { log.push('leave'); },
    subscribe: (l) => { rtcListeners.add(l); return () => rtcListeners.delete(l); },
  };
  const signalling: SignallingPort = {
    login: async () => {},
    logout: async () => {},
    send: async (to, s) => { log.push(`signal ${to} ${s.action}`); return { id: 'x', from: 'me', to, time: 1, ...s }; },
    subscribe: () => () => {},
  };
  const clock = new SimulatedClock();
  const logic = composeCall({
    api, rtc, signalling,
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (id) => clock.clearTimeout(id as number),
  });
  return { logic, log, clock, emitRtc: (e: RtcEvent) => rtcListeners.forEach((l) => l(e)) };
}

const incoming = {
  direction: 'in' as const, online: true, isHost: true, account: 'yx-host',
  signal: { id: 'r1', action: SignalAction.videoCall, channelId: 'ch1', from: 'yx-user', to: 'yx-host', time: 1 },
};

describe('call composition', () => {
  it('takes a call: joinCall, media, join, then the accept signal; hangs up and cleans up both sides', async () => {
    const { logic, log, emitRtc } = fakes();
    const actor = createActor(logic, { input: incoming }).start();
    actor.send({ type: 'call.accept' });
    await flush();
    expect(log).toEqual(['joinCall', 'prepare', 'join', `signal yx-user ${SignalAction.accept}`]);
    emitRtc({ type: 'firstRemoteFrame' });
    expect(actor.getSnapshot().matches('connected')).toBe(true);
    actor.send({ type: 'call.hangup' });
    await flush();
    await flush();
    expect(log.slice(4)).toEqual([`signal yx-user ${SignalAction.hangup}`, 'leave', 'endCall ch1 1']);
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toMatchObject({ status: CallStatus.hungUp, reason: 1, text: null, channelId: 'ch1', direction: 'in' });
  });

  it('gives up taking the call when joinCall has not answered in 3 s', async () => {
    const { logic, clock } = fakes({ joinCall: () => new Promise(() => {}) });
    const actor = createActor(logic, { input: incoming }).start();
    actor.send({ type: 'call.accept' });
    clock.increment(JOIN_TIMEOUT_MS - 1);
    await flush();
    expect(actor.getSnapshot().matches({ incoming: 'accepting' })).toBe(true);
    clock.increment(1);
    await flush();
    expect(actor.getSnapshot().context.outcome?.text).toBe(CallText.callError);
  });

  it('retries room preparation once, not more', async () => {
    let tries = 0;
    await expect(retryOnce(async () => { tries++; if (tries < 2) throw new Error('busy'); return 'ok'; })).resolves.toBe('ok');
    tries = 0;
    await expect(retryOnce(async () => { tries++; throw new Error(`try ${tries}`); })).rejects.toThrow('try 2');
    expect(tries).toBe(2);
  });
});
