/**
 * A media stream on screen (SPEC §2 /liveRoom full-screen video; the call's videos): a
 * `<video muted autoPlay playsInline>` fed from a CallMediaView. Video only: the media
 * adapter plays the sound itself. Streams never enter machine context; they are read here
 * with useSyncExternalStore.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { CallMediaView } from '../../machines/ports/call.media';

const NO_SUBSCRIPTION = () => () => {};

/** The own camera (`local`) or the other side's video (`remote`), kept current. */
export function useMediaStream(media: CallMediaView | undefined, which: 'local' | 'remote'): MediaStream | null {
  return useSyncExternalStore(
    media ? (listener) => media.subscribe(listener) : NO_SUBSCRIPTION,
    () => (media ? media[which]() : null),
  );
}

export function StreamVideo({ stream, label, className }: { stream: MediaStream | null; label: string; className?: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current && ref.current.srcObject !== stream) ref.current.srcObject = stream;
  }, [stream]);
  return (
    <video
      ref={ref}
      className={className}
      aria-label={label}
      data-has-stream={stream ? 'true' : 'false'}
      autoPlay
      playsInline
      muted
    />
  );
}
