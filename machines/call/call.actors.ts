/** The call machine composed with its ports: the call API, the media (RTC), signalling and the gift API. */
import { fromCallback, fromPromise } from 'xstate';
import { askGiftMachine } from '../ask-gift/ask-gift.machine';
import { callEndMachine } from './call-end.machine';
import { callSetupMachine } from './call-setup.machine';
import { inCallMachine } from './in-call.machine';
import { giftListMachine } from '../gift-list/gift-list.machine';
import { giftingMachine } from '../gifting/gifting.machine';
import type { CallApiPort, RtcPort } from '../ports/call.port';
import type { GiftApiPort } from '../ports/gift.port';
import type { SignallingPort } from '../ports/signalling.port';
import { SignalAction } from '../ports/signalling.port';
import { HangupReason, JOIN_TIMEOUT_MS, callMachine } from './call.machine';
import type { CallEvent } from './call.machine';

export interface CallPorts {
  api: CallApiPort;
  rtc: RtcPort;
  signalling: SignallingPort;
  gifts: GiftApiPort;
  /** Timers for the joinCall time-out; tests pass a simulated clock. */
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (id: unknown) => void;
}

/** SPEC §9 "room preparation retried once". */
export async function retryOnce<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch {
    return run();
  }
}

export function composeCall({ api, rtc, signalling, gifts, setTimeout, clearTimeout }: CallPorts) {
  /** Rejects when `promise` has not settled within `ms`. */
  const within = <T>(promise: Promise<T>, ms: number, what: string) => new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms);
    promise.then(
      (value) => { clearTimeout(timer); resolve(value); },
      (error: unknown) => { clearTimeout(timer); reject(error); },
    );
  });

  /** A signal to the peer about the call: its ring, and the farewells of its end. */
  const signal = fromPromise<void, { to: string; action: SignalAction; channelId: string; payload?: Record<string, unknown> }>(async ({ input }) => {
    await signalling.send(input.to, { action: input.action, channelId: input.channelId, ...(input.payload ? { payload: input.payload } : {}) });
  });

  return callMachine.provide({
    actors: {
      setup: callSetupMachine.provide({
        actors: {
          createCall: fromPromise(({ input }) => api.createCall(input)),
          // The adapter's prepare is one per call: the caller's (beside createCall) and the callee's preview
          // (while it rings) are what the join and the accept find done. With camera and microphone
          // allowed already nobody is deciding, so the ring does not wait for them to open (a camera
          // not yet opened since the browser started takes a third of a second): should they fail after
          // all, the adapter says so (`mediaFailed`) and the call ends with that text.
          prepare: fromPromise(async ({ input }) => {
            const opening = rtc.prepare(input.video);
            if (!rtc.mediaAllowed()) return opening;
            opening.catch(() => undefined);
          }),
          join: fromPromise(({ input }) => retryOnce(() => rtc.join(input.channelId, input.account))),
        },
      }),
      preview: fromPromise(({ input }) => rtc.prepare(input.video, { channelId: input.channelId, account: input.account }).catch(() => undefined)),
      // The media channel at once: the link is made while the camera opens (usually open since the
      // ring), and the camera goes into it when it does. The camera before joinCall: a refused camera
      // must not have taken the call (joinCall charges the first period), and leaves the channel at once.
      // A hang-up meanwhile stops the actor (`signal`): whatever opened after it is closed again, and
      // the caller is not told it was taken.
      accept: fromPromise(async ({ input, signal }) => {
        const leave = () => rtc.leave().catch(() => undefined);
        const stillWanted = async () => {
          if (!signal.aborted) return;
          await leave();
          throw new Error('The call was put down while it was being taken');
        };
        const joined = retryOnce(() => rtc.join(input.channelId, input.account));
        joined.catch(() => undefined);
        await rtc.prepare(input.video).catch(async (error: unknown) => {
          await leave();
          throw error;
        });
        await stillWanted();
        await Promise.all([within(api.joinCall(input.channelId, input.idempotencyKey), JOIN_TIMEOUT_MS, 'joinCall'), joined]);
        await stillWanted();
        await signalling.send(input.peer, { action: SignalAction.accept, channelId: input.channelId });
      }),
      peerCard: fromPromise(({ input }) => api.peerCard(input.account)),
      terms: fromPromise(({ input }) => api.terms(input.channelId)),
      signal,
      end: callEndMachine.provide({
        actors: {
          signal,
          // The server first, so that the record says "refused" whoever is quicker to tell it afterwards.
          reject: fromPromise(async ({ input }) => {
            await api.endCall(input.channelId, HangupReason.local).catch(() => undefined);
            await signalling.send(input.peer, { action: SignalAction.reject, channelId: input.channelId });
          }),
          // The caller first: told by the server, it would hear a refusal (-3 type 1) instead.
          fail: fromPromise(async ({ input }) => {
            await signalling.send(input.peer, { action: SignalAction.reject, channelId: input.channelId, payload: { unavailable: true } })
              .catch(() => undefined);
            await api.endCall(input.channelId, HangupReason.local);
          }),
          // Both always run: media is left even when the server cannot be told, and the other way round.
          cleanup: fromPromise(async ({ input }) => {
            const left = rtc.leave().catch(() => undefined);
            const told = input.channelId ? api.endCall(input.channelId, input.reason).catch(() => undefined) : undefined;
            await Promise.all([left, told]);
          }),
        },
      }),
      signals: fromCallback<CallEvent>(({ sendBack }) => signalling.subscribe((event) => sendBack({ type: 'signal.event', event }))),
      media: fromCallback<CallEvent>(({ sendBack }) => rtc.subscribe((event) => sendBack({ type: 'rtc.event', event }))),
      inCall: inCallMachine.provide({
        actors: {
          // async: a port that throws at once still ends as the actor's error, which each machine handles.
          giftList: giftListMachine.provide({ actors: { load: fromPromise(async ({ input }) => gifts.list(input)) } }),
          askGift: askGiftMachine.provide({ actors: { askFor: fromPromise(async ({ input }) => gifts.askFor(input)) } }),
          gifting: giftingMachine.provide({
            actors: {
              send: fromPromise(async ({ input }) => gifts.send(input)),
              refuseAsk: fromPromise(async ({ input }) => {
                await gifts.refuseAsk(input);
                return input;
              }),
            },
          }),
        },
      }),
    },
  });
}
