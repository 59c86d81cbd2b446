/**
 * What the call screens need from the media of a call besides the facts the call machine
 * hears (RtcPort in call.port.ts): the streams to show. Machines never read it (media stays
 * out of machine context); the RTC adapter carries it as `media`, and src/main.tsx hands it
 * to React through the Services context, where screens read it with useSyncExternalStore.
 */
import type { RtcPort } from './call.port';

export interface CallMediaView {
  /** The own camera (and microphone) from `prepare` until `leave`; null otherwise. Show it muted. */
  local(): MediaStream | null;
  /**
   * The peer's video from the moment it arrives until it goes; null otherwise. Video only: the
   * adapter plays the peer's sound itself, so a `<video muted autoPlay playsInline>` shows it.
   */
  remote(): MediaStream | null;
  /** Calls `listener` whenever local() or remote() changes; returns the unsubscribe (fits useSyncExternalStore). */
  subscribe(listener: () => void): () => void;
}

/** An RTC adapter: the port the call machine uses and the view the call screens use. */
export interface RtcAdapter extends RtcPort {
  readonly media: CallMediaView;
}
