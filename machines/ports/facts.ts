/**
 * The ports' events as the machines take them (ARCHITECTURE.md: facts from outside are flat
 * events named `source.pastTense`, not envelopes), mapped here once for every adapter. The
 * compositions' subscriptions call these (call.actors.ts, live-*.actors.ts): per-use code, so
 * none of this is in a first screen.
 */
import { SignalAction } from '../codes/call.codes';
import type { RtcEvent } from './call.port';
import type { LiveMediaEvent } from './live.port';
import type { CallSignal, SignalEvent } from './signalling.port';

/** A port's event as a fact of its source: the same fields, the type prefixed (`firstRemoteFrame` of the RTC port is `rtc.firstRemoteFrame`). */
export type FactOf<S extends string, E extends { type: string }> = E extends unknown
  ? { [K in keyof E]: K extends 'type' ? `${S}.${E['type']}` : E[K] }
  : never;

/** `event` as the fact of `source` (see FactOf). */
export const factOf = <S extends string, E extends { type: string }>(source: S, event: E): FactOf<S, E> =>
  ({ ...event, type: `${source}.${event.type}` }) as FactOf<S, E>;

/** The RTC port's events as the call machine takes them: `rtc.firstRemoteFrame`, `rtc.mediaFailed`, … (FactOf). */
export type RtcFact = FactOf<'rtc', RtcEvent>;
export const rtcFact = (event: RtcEvent): RtcFact => factOf('rtc', event);

/** The live media port's events as the live machines take them: `media.hostLeft`, `media.firstRemoteFrame`, … (FactOf). */
export type LiveMediaFact = FactOf<'media', LiveMediaEvent>;
export const liveMediaFact = (event: LiveMediaEvent): LiveMediaFact => factOf('media', event);

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
