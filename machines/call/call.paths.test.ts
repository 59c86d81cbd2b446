/**
 * Generated-path tests of the call machine (SPEC §4 Call status, §8 call messages, §9 call
 * constants): every path is replayed on the real actor with manual call API, media and
 * signalling (nothing answers until the path says so) and a simulated clock.
 */
import { expect } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { CallApiError, MediaError, MediaErrorText } from '../ports/call.port';
import type { CallInfo } from '../ports/call.port';
import { PendingCalls } from '../ports/pending';
import { SignalAction, SignalFailure, TEXT_PEER_UNAVAILABLE } from '../ports/signalling.port';
import type { CallSignal } from '../ports/signalling.port';
import { seenIntentKeys } from '../testing/intent-keys';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import {
  CONNECT_TIMEOUT_MS, CallStatus, CallText, HangupReason, appCallStateOf, callMachine,
} from './call.machine';
import type { CallContext, CallInput } from './call.machine';
import { peerShortOfDiamonds } from './call.texts';

const info: CallInfo = {
  channelId: 'ch1', yxAccid: 'yx-host', videoPrice: 48, nickname: 'Sofia', age: 24, listPrice: 60, billingPeriodMs: 60_000, balance: 500,
};
const rose = { giftId: 1, giftName: 'Rose', giftImg: '/gifts/rose.svg', giftNum: 2, fromNick: 'Alex' };
const ask = { askId: 4, channelId: 'ch1', giftId: 11, giftName: 'Ring', giftImg: '/gifts/ring.svg', giftPrice: 520, fromNick: 'Sofia' };
const signal = (action: number, channelId = 'ch1'): AnyEventObject => ({
  type: 'signal.event',
  event: { type: 'signal', signal: { id: `s${action}${channelId}`, action, channelId, from: 'peer', to: 'me', time: 1 } },
});
const rtc = (type: string): AnyEventObject => ({ type: 'rtc.event', event: { type } });
const done = (id: string, output?: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error });

const RING_OUT = afterEvent('ringTimeout', 'call.outgoing.ringing');
const RING_IN = afterEvent('ringTimeout', 'call.incoming.ringing');
const CONNECT = afterEvent('connectTimeout', 'call.connecting');

/** The ending's input for the caller's call with the host (the peer yx-host, channel ch1), reason local. */
const endOf = (tell: string, channelToTell: string | null) => ({ tell, peer: 'yx-host', channelId: 'ch1', channelToTell, reason: HangupReason.local });

const samples: AnyEventObject[] = [
  // The outgoing set-up (its own paths: call-setup.paths.test.ts): ready, or what failed once the call existed, or createCall's refusal.
  done('setup', { info, failure: null }),
  done('setup', { info, failure: new MediaError('permissionDenied') }),
  done('setup', { info, failure: new Error('the media channel refused the join') }),
  fail('setup', new CallApiError('busy', 'busy')),
  fail('setup', new CallApiError('offline', 'offline')),
  fail('setup', new CallApiError('balance', 'diamond.not.enough')),
  // The ring could not go (SignalFailure): the peer is not connected (SPEC §8 'the user is currently unavaliable'), this side is not, refused.
  fail('ring', new SignalFailure('unavailable', TEXT_PEER_UNAVAILABLE)),
  fail('ring', new SignalFailure('disconnected', 'Signalling is not logged in')),
  fail('ring', new SignalFailure('refused', 'refused')),
  // The ending (its own paths: call-end.machine's tests): it tells the peer and cleans up, and ends either way.
  done('end'), fail('end', new Error('media already gone')),
  done('accept'), fail('accept', new Error('joinCall timed out')),
  done('peerCard', { nickname: 'Alex', age: 30, countryCode: 'PH' }), fail('peerCard', new Error('no.match.user')),
  // A paying callee's price and balance (the server's callTerms), or no answer.
  done('terms', { videoPrice: 48, listPrice: 60, callDiscount: 80, billingPeriodMs: 60_000, youPay: true, balance: 500 }),
  fail('terms', new Error('Network Connection Failure')),
  done('failSignal'), fail('failSignal', new Error('gone')),
  done('cleanup'),
  { type: RING_OUT }, { type: RING_IN }, { type: CONNECT },
  signal(SignalAction.accept), signal(SignalAction.reject), signal(SignalAction.cancel), signal(SignalAction.hangup),
  signal(SignalAction.hangup, 'other-channel'),
  {
    type: 'signal.event',
    event: { type: 'signal', signal: { id: 'busy', action: SignalAction.reject, channelId: 'ch1', from: 'peer', to: 'me', time: 1, payload: { busy: true } } },
  },
  {
    type: 'signal.event',
    event: {
      type: 'signal',
      signal: { id: 'unavailable', action: SignalAction.reject, channelId: 'ch1', from: 'peer', to: 'me', time: 1, payload: { unavailable: true } },
    },
  },
  rtc('firstRemoteFrame'), rtc('firstRemoteAudio'), rtc('remoteLeft'), rtc('connectionLost'),
  // The own camera failing after the call went on without waiting for it (allowed already).
  { type: 'rtc.event', event: { type: 'mediaFailed', error: new MediaError('deviceNotFound') } },
  { type: 'system.callRefused', text: CallText.refused },
  // SPEC §4 -3 type 3: a warning of this call, and one of another channel.
  { type: 'system.callWarning', channelId: 'ch1', text: 'Not enough diamonds to continue' },
  { type: 'system.callWarning', channelId: 'ch9', text: 'Another call' },
  { type: 'system.callIncome', amount: 60 }, { type: 'system.giftIncome', amount: 20 },
  // In-call chat and gifts (SPEC §4 -1, 4, 16 and the ask, 17).
  { type: 'system.inCallTranslation', text: ' hola ' }, { type: 'system.giftReceived', ...rose },
  { type: 'system.askGiftRefused', text: 'Asking for a gift was refused' }, { type: 'system.giftAsked', ask },
  { type: 'call.cancel' }, { type: 'call.accept' }, { type: 'call.reject' }, { type: 'call.hangup' },
];

const incomingSignal: CallSignal = {
  id: 'ring-1', action: SignalAction.videoCall, channelId: 'ch1', from: 'yx-user', to: 'yx-host', time: 1,
  payload: { nickname: 'Alex', age: 30, userId: 200001 },
};

const inputs: Record<string, CallInput> = {
  'user calls': { direction: 'out', online: true, isHost: false, account: 'yx-user', peer: { account: 'yx-host', userId: 100001 }, callType: 0, ringTimeoutMs: 30_000 },
  'user calls offline': { direction: 'out', online: false, isHost: false, account: 'yx-user', peer: { account: 'yx-host', userId: 100001 }, callType: 0 },
  // A prime host calls a user (SPEC §5): busy, she hears 'The user is busy.' (SPEC §8).
  'host calls a user': { direction: 'out', online: true, isHost: true, account: 'yx-host', peer: { account: 'yx-user', userId: 100001 }, callType: 0, ringTimeoutMs: 30_000 },
  'host is called': { direction: 'in', online: true, isHost: true, account: 'yx-host', signal: incomingSignal },
  // A prime host calls a user (SPEC §5), who pays; by audio (signalling action 10).
  'user is called': {
    direction: 'in', online: true, isHost: false, account: 'yx-user',
    signal: { ...incomingSignal, action: SignalAction.audioCall, from: 'yx-host', to: 'yx-user', payload: { videoPrice: 1 } },
  },
};

/** Whether an input's call has video (an audio call, signalling action 10, has none). */
const videoOf = (input: CallInput) => (input.direction === 'out' ? input.callType : input.signal.action) !== SignalAction.audioCall;

/** The peer's account for an input: the host a user calls, the user who calls a host, the host who calls a user. */
const peerOfInput = (input: CallInput) => (input.direction === 'out' ? input.peer.account : input.signal.from);

async function replay(input: CallInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  // The keys the call makes, in order.
  const { made, restore } = seenIntentKeys();
  try {
    await replaySteps(input, steps, inspect, made);
  } finally {
    restore();
  }
}

async function replaySteps(input: CallInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn, made: string[]) {
  const pending = new PendingCalls();
  const clock = new SimulatedClock();
  const promise = (id: string) => fromPromise(({ input: args, self }) => pending.add<unknown>(self.id || id, [args]));
  const actor = createActor(callMachine.provide({
    actors: {
      setup: promise('setup') as never, preview: promise('preview') as never, accept: promise('accept') as never,
      signal: promise('signal') as never, end: promise('end') as never, peerCard: promise('peerCard') as never,
      terms: promise('terms') as never,
    },
  }), { input, clock, inspect });
  actor.start();
  await flush();

  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    const incomeBefore = ((before.children.inCall as AnyActorRef | undefined)?.getSnapshot().context.callIncome as number | undefined) ?? 0;
    const e = event as AnyEventObject;
    if (event.type.startsWith('xstate.after.')) {
      const due = event.type === CONNECT ? CONNECT_TIMEOUT_MS : before.context.ringTimeoutMs;
      clock.increment(due - 1);
      await flush();
      expect(actor.getSnapshot().value).toEqual(before.value);
      clock.increment(1);
    } else if (event.type.startsWith('xstate.done.actor.') || event.type.startsWith('xstate.error.actor.')) {
      const id = event.type.split('.').slice(3).join('.');
      const call = pending.next(id);
      // createCall answers with the account of the peer called (the host's info for a user's call, the user's for a host's).
      const answer = e.output as { info: CallInfo } | undefined;
      const output = id === 'setup' && input.direction === 'out' && answer ? { ...answer, info: { ...answer.info, yxAccid: input.peer.account } } : e.output;
      if (event.type.startsWith('xstate.done')) call.resolve(output);
      else call.reject(e.error);
    } else {
      actor.send(event as never);
    }
    await flush();

    const snapshot = actor.getSnapshot();
    const ctx: CallContext = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    expect(ctx.status).toBe((state.context as CallContext).status);
    // SPEC §5: no call starts offline; nothing is asked of the server or the media then.
    if (!input.online) {
      expect(ctx.outcome?.text).toBe(CallText.offline);
      expect(pending.count('setup')).toBe(0);
    }
    // §8 texts where they belong.
    if (event.type === 'xstate.error.actor.setup') {
      const refusal = (e.error as CallApiError).refusal;
      // A host calls users: busy, 'The user is busy.'; short, the user she called cannot pay.
      const texts = input.isHost
        ? { busy: CallText.userBusy, offline: CallText.unavailable, balance: peerShortOfDiamonds(undefined) }
        : { busy: CallText.busy, offline: CallText.unavailable, balance: CallText.balance };
      expect(ctx.outcome?.text).toBe(texts[refusal as 'busy']);
      expect(pending.argsOf('end').at(-1)).toEqual([{ ...endOf('none', null), peer: peerOfInput(input), channelId: '' }]);
    }
    // The ring could not go: the peer not connected is SPEC §8's 'the user is currently unavaliable' (she is not available),
    // this side not connected the server error, anything else 'Error!'; nobody is told, and the server hears of the end.
    if (event.type === 'xstate.error.actor.ring') {
      const { kind } = e.error as SignalFailure;
      expect(ctx.outcome).toEqual({
        status: CallStatus.cancel, reason: null,
        text: { unavailable: CallText.unavailable, disconnected: CallText.serverError, refused: CallText.error }[kind],
      });
      expect(pending.argsOf('end').at(-1)).toEqual([{ ...endOf('none', 'ch1'), peer: peerOfInput(input) }]);
    }
    if (e.type === 'signal.event' && e.event.signal.payload?.busy === true && before.matches({ outgoing: 'ringing' })) {
      expect(ctx.outcome?.text).toBe(input.isHost ? CallText.userBusy : CallText.busy);
    }
    // The set-up is asked for the peer the call is for, with the camera unless it is an audio call, and
    // with the key made as the call was placed: one call, one intent, one key.
    if (snapshot.matches({ outgoing: 'starting' })) {
      expect(pending.argsOf('setup')).toEqual([[{ beCallUserId: 100001, callType: 0, video: true, account: input.account, idempotencyKey: made[0] }]]);
    }
    // Answering is the callee's intent: its key is made as she takes the call, and a second tap makes no other.
    if (snapshot.matches({ incoming: 'accepting' })) {
      expect(pending.argsOf('accept')).toEqual([[{
        video: videoOf(input), channelId: 'ch1', peer: peerOfInput(input), account: input.account, idempotencyKey: made[0],
      }]]);
    }
    // A callee who pays is told the price by the server (never by the ring) and cannot take the call before; a host is not asked.
    if (snapshot.matches({ incoming: 'ringing' })) {
      expect(pending.argsOf('terms')).toEqual(input.isHost ? [] : [[{ channelId: 'ch1' }]]);
      expect(snapshot.can({ type: 'call.accept' })).toBe(!snapshot.matches({ incoming: { ringing: 'pricing' } }));
      if (!input.isHost && !snapshot.matches({ incoming: { ringing: 'priced' } })) expect(ctx.peer.videoPrice).toBeUndefined();
    }
    if (event.type === 'xstate.done.actor.terms') {
      expect(ctx).toMatchObject({ peer: { videoPrice: 48 }, listPrice: 60, callDiscount: 80, billingPeriodMs: 60_000, balance: 500 });
    }
    // The room's messages that came before it (the first period's income as the call is taken) are kept, and taken as the room starts.
    if (!before.matches('connected') && !before.matches('ending') && event.type.startsWith('system.') && event.type !== 'system.callWarning'
      && event.type !== 'system.callRefused') {
      expect(ctx.early.at(-1)).toEqual(event);
    }
    if (snapshot.matches('connected') && !before.matches('connected')) {
      const early = ctx.early.filter((m) => m.type === 'system.callIncome').reduce((sum, m) => sum + m.amount, 0);
      expect((snapshot.children.inCall as AnyActorRef).getSnapshot().context.callIncome).toBe(early);
    }
    expect(made.length).toBe(input.direction === 'out' ? (input.online ? 1 : 0) : pending.count('accept'));
    expect(ctx.intentKey).toBe(made[0] ?? null);
    // A refused camera or a failed join once the call existed ends it, and the server is told of that call; else the peer is rung.
    if (event.type === 'xstate.done.actor.setup') {
      const { failure } = e.output as { failure: unknown };
      const text = failure === null ? null : failure instanceof MediaError ? MediaErrorText.permissionDenied : CallText.callError;
      expect(snapshot.matches('ending')).toBe(failure !== null);
      expect(ctx.channelId).toBe('ch1');
      if (failure !== null) {
        expect(ctx.outcome).toEqual({ status: CallStatus.cancel, reason: null, text });
        expect(pending.argsOf('end').at(-1)).toEqual([{ ...endOf('none', 'ch1'), peer: peerOfInput(input) }]);
      }
    }
    // The callee's camera opens as it rings (the preview, naming the channel she is rung for), before anything is asked of the server.
    if (snapshot.matches({ incoming: 'ringing' })) expect(pending.argsOf('preview').at(-1)).toEqual([{ video: videoOf(input), channelId: 'ch1', account: input.account }]);
    // A video call is connected by the peer's first frame only; an audio call by her first sound too.
    if (e.type === 'rtc.event' && e.event.type === 'firstRemoteAudio' && before.matches('connecting')) {
      expect(snapshot.matches('connected')).toBe(!videoOf(input));
    }
    // Her first frame can come before her accept, or before taking the call is done: it is kept, and taken, the call is connected.
    if (e.type === 'rtc.event' && e.event.type === 'firstRemoteFrame' && (before.matches({ outgoing: 'ringing' }) || before.matches({ incoming: 'accepting' }))) {
      expect(snapshot.matches({ outgoing: { ringing: 'framed' } }) || snapshot.matches({ incoming: { accepting: 'framed' } })).toBe(true);
    }
    if (before.matches({ outgoing: { ringing: 'framed' } }) && e.type === 'signal.event' && e.event.signal.action === SignalAction.accept) {
      expect(snapshot.matches('connected')).toBe(true);
    }
    if (before.matches({ incoming: { accepting: 'framed' } }) && event.type === 'xstate.done.actor.accept') expect(snapshot.matches('connected')).toBe(true);
    // Connected means a remote frame arrived; a hang-up after it is in-progress → hung up with its reason.
    if (snapshot.matches('connected')) expect(ctx.status).toBe(CallStatus.inProgress);
    // Connected: the call's room runs; both sides have the gift list and the gift queue; a host asks, a user pays (SPEC §2).
    const room = snapshot.children.inCall as AnyActorRef | undefined;
    expect(Boolean(room)).toBe(snapshot.matches('connected'));
    const children = (room?.getSnapshot().children ?? {}) as Record<string, AnyActorRef | undefined>;
    const beforeRoom = before.children.inCall as AnyActorRef | undefined;
    expect(Boolean(children.giftList)).toBe(Boolean(room));
    expect(Boolean(children.giftQueue)).toBe(Boolean(room));
    expect(Boolean(children.askGift)).toBe(Boolean(room) && input.isHost);
    expect(Boolean(children.gifting)).toBe(Boolean(room) && !input.isHost);
    if (event.type === 'system.inCallTranslation' && room) expect(room.getSnapshot().context.translations.at(-1)?.text).toBe('hola');
    if (event.type === 'system.callIncome' && room) expect(room.getSnapshot().context.callIncome).toBe(incomeBefore + 60);
    if (event.type === 'system.giftReceived' && room) {
      const queue = children.giftQueue!.getSnapshot().context;
      expect([queue.current, ...queue.waiting].at(-1)).toMatchObject(rose);
    }
    if (event.type === 'system.askGiftRefused' && children.askGift) expect(children.askGift.getSnapshot().context.notice).toBe('Asking for a gift was refused');
    if (event.type === 'system.giftAsked' && children.gifting) expect(children.gifting.getSnapshot().context.ask).toEqual(ask);
    // The user's side starts from the balance createCall (or, called, the terms) said (SPEC §6 price after discount, and what it leaves).
    if (children.gifting && !beforeRoom && ctx.balance !== null) {
      expect(children.gifting.getSnapshot().context.known).toEqual({ amount: 500, at: 0 });
      expect(ctx).toMatchObject({ listPrice: 60, billingPeriodMs: 60_000, balance: 500 });
    }
    if (event.type === 'call.hangup' && before.matches('connected')) expect(ctx.outcome).toMatchObject({ status: CallStatus.hungUp, reason: HangupReason.local });
    if (e.type === 'rtc.event' && e.event.type === 'connectionLost' && before.matches('connected')) {
      expect(ctx.outcome?.reason).toBe(HangupReason.weakNetwork);
    }
    // The own camera failing after the ring ends the call with its text: hung up once connected, else cancelled.
    const mediaFailed = e.type === 'rtc.event' && e.event.type === 'mediaFailed';
    if (mediaFailed && (before.matches({ outgoing: 'ringing' }) || before.matches('connecting') || before.matches('connected'))) {
      expect(ctx.outcome).toEqual(before.matches('connected')
        ? { status: CallStatus.hungUp, reason: HangupReason.local, text: MediaErrorText.deviceNotFound }
        : { status: CallStatus.cancel, reason: null, text: MediaErrorText.deviceNotFound });
    }
    // Entering the ending, the peer is told as the way the call ended asks (call-end.machine.ts says how).
    if (snapshot.matches('ending') && !before.matches('ending') && event.type !== 'xstate.done.actor.setup' && event.type !== 'xstate.error.actor.setup') {
      const taken = before.matches('connecting') || before.matches('connected');
      const tell = event.type === 'call.cancel' || (mediaFailed && !taken) ? 'cancel'
        : event.type === RING_OUT ? 'notAnswered'
          : event.type === 'call.reject' || (event.type === 'call.hangup' && before.matches({ incoming: 'accepting' })) ? 'reject'
            : event.type === 'xstate.error.actor.accept' ? 'fail'
              : taken && (event.type === 'call.hangup' || event.type === CONNECT || mediaFailed || (e.type === 'rtc.event' && e.event.type === 'connectionLost')) ? 'hangup'
                : 'none';
      const peer = peerOfInput(input);
      const unanswered = input.direction === 'in' && ctx.outcome?.status === CallStatus.timeout;
      expect(pending.argsOf('end').at(-1)).toEqual([{
        tell, peer, channelId: ctx.channelId ?? '', channelToTell: unanswered ? null : ctx.channelId, reason: ctx.outcome?.reason ?? HangupReason.local,
      }]);
    }
    // The callee shows the server's card of the caller; the account stays the one that rang.
    if (event.type === 'xstate.done.actor.peerCard') expect(ctx.peer).toMatchObject({ account: peerOfInput(input), nickname: 'Alex', countryCode: 'PH' });
    // A hang-up before the media is up turns the call down (told as a reject, above).
    if (event.type === 'call.hangup' && before.matches({ incoming: 'accepting' })) expect(ctx.outcome).toMatchObject({ status: CallStatus.cancel, reason: HangupReason.local });
    if (e.type === 'signal.event' && e.event.signal.payload?.unavailable === true && before.matches({ outgoing: 'ringing' })) {
      expect(ctx.outcome?.text).toBe(CallText.unavailable);
    }
    // An incoming ring that ran out is the server's to end: the ending does not tell it (no refusal reaches the caller).
    if (snapshot.matches('ending') && ctx.direction === 'in' && ctx.outcome?.status === CallStatus.timeout) {
      expect(pending.argsOf('end').at(-1)).toEqual([{ ...endOf('none', null), peer: peerOfInput(input) }]);
    }
    // A warning of this call's channel is kept while the call is not over (shown, and said at the end if the end says nothing).
    if (e.type === 'system.callWarning') {
      const b = before.context as CallContext;
      expect(ctx.warning).toBe(e.channelId === b.channelId && b.outcome === null ? e.text : b.warning);
    }
    // A signal of another channel changes nothing.
    if (e.type === 'signal.event' && e.event.signal.channelId !== 'ch1') expect(snapshot.value).toEqual(before.value);
    // The host overlays follow the app call state.
    const appState = appCallStateOf(snapshot);
    if (snapshot.matches({ incoming: 'ringing' })) expect(appState).toBe('calling');
    if (snapshot.matches('connected')) expect(appState).toBe('connected');
    if (snapshot.status === 'done') {
      expect(snapshot.output).toMatchObject({ ...ctx.outcome, text: ctx.outcome?.text ?? ctx.warning, channelId: ctx.channelId, direction: ctx.direction });
      if (ctx.connectedAt === 0) expect(snapshot.output?.answerTime).toBe(0);
    }
  }
  actor.stop();
}

describeGeneratedPaths('call', callMachine, {
  events: samples,
  inputs,
  serializeContext: (c) => {
    const ctx = c as CallContext;
    return [ctx.status, ctx.channelId !== null, ctx.outcome?.text ?? null, ctx.warning !== null];
  },
  // The offline start has one path (straight to the end); the others many.
  minPaths: 2,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});
