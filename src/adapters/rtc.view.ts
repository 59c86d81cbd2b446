/**
 * The streams an RTC adapter shows to the call screens (CallMediaView), shared by the local
 * and the Agora adapter. A stream keeps its identity until it changes, as
 * useSyncExternalStore requires.
 */
import type { CallMediaView } from '../../machines/ports/call.media';

export class MediaViewState implements CallMediaView {
  private own: MediaStream | null = null;
  private peer: MediaStream | null = null;
  private readonly listeners = new Set<() => void>();

  local = (): MediaStream | null => this.own;

  remote = (): MediaStream | null => this.peer;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  setLocal(stream: MediaStream | null): void {
    if (stream === this.own) return;
    this.own = stream;
    this.changed();
  }

  setRemote(stream: MediaStream | null): void {
    if (stream === this.peer) return;
    this.peer = stream;
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

const STATS_POLL_MS = 200;

/**
 * Calls `onSound` once, when the peer's sound first arrives on `track`: its `unmute` (the
 * browser's first packets) or `received()` (e.g. the receiver's `packetsReceived`, polled),
 * whichever comes first. Returns the cancel.
 */
export function watchFirstSound(track: MediaStreamTrack, onSound: () => void, received: () => Promise<boolean>): () => void {
  let done = false;
  const finish = () => {
    if (done) return;
    cancel();
    onSound();
  };
  const poll = setInterval(() => {
    received().then((yes) => yes && finish(), () => undefined);
  }, STATS_POLL_MS);
  track.addEventListener('unmute', finish);
  function cancel(): void {
    done = true;
    clearInterval(poll);
    track.removeEventListener('unmute', finish);
  }
  return cancel;
}

/**
 * Calls `onFrame` once, when the first frame of `stream`'s video is decoded: a detached,
 * muted video element plays it, and the first of its requestVideoFrameCallback, its
 * `loadeddata` (browsers without the callback) or `decoded()` (e.g. the receiver's
 * `framesDecoded`, polled) counts. Returns the cancel.
 */
export function watchFirstFrame(stream: MediaStream, onFrame: () => void, decoded?: () => Promise<boolean>): () => void {
  let done = false;
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  let handle: number | null = null;
  const finish = () => {
    if (done) return;
    cancel();
    onFrame();
  };
  if (typeof video.requestVideoFrameCallback === 'function') handle = video.requestVideoFrameCallback(finish);
  video.addEventListener('loadeddata', finish);
  video.play().catch(() => undefined);
  const poll = decoded
    ? setInterval(() => {
      decoded().then((yes) => yes && finish(), () => undefined);
    }, STATS_POLL_MS)
    : null;
  function cancel(): void {
    done = true;
    if (poll !== null) clearInterval(poll);
    if (handle !== null) video.cancelVideoFrameCallback(handle);
    video.removeEventListener('loadeddata', finish);
    video.pause();
    video.srcObject = null;
  }
  return cancel;
}
