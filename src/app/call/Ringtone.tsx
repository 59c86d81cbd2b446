/**
 * The ringing tone (SPEC §4: it plays while calling only), made with Web Audio so no sound
 * file has to be fetched. Browsers block sound until the page was tapped: then a visible
 * "Tap to enable sound" button starts it.
 */
import { useEffect, useRef, useState } from 'react';

/** Two short tones, then silence; repeated. */
function startPattern(ctx: AudioContext): () => void {
  const gain = ctx.createGain();
  gain.gain.value = 0;
  gain.connect(ctx.destination);
  const osc = ctx.createOscillator();
  osc.frequency.value = 440;
  osc.connect(gain);
  osc.start();
  const schedule = (at: number) => {
    for (const [from, to] of [[0, 0.4], [0.6, 1.0]] as const) {
      gain.gain.setValueAtTime(0.2, at + from);
      gain.gain.setValueAtTime(0, at + to);
    }
  };
  let next = ctx.currentTime;
  schedule(next);
  const timer = window.setInterval(() => {
    next += 3;
    schedule(next);
  }, 3000);
  return () => {
    window.clearInterval(timer);
    osc.stop();
    osc.disconnect();
    gain.disconnect();
  };
}

/**
 * One audio context for every ring, suspended between them: making one asks the audio device
 * for its set-up while the main thread waits, just as a ring opens the camera for the call.
 */
let shared: AudioContext | null = null;
function ringContext(): AudioContext | null {
  const AudioCtx = window.AudioContext as typeof AudioContext | undefined;
  if (!AudioCtx) return null;
  if (shared?.state === 'closed') shared = null;
  shared ??= new AudioCtx();
  return shared;
}

export function Ringtone() {
  const [blocked, setBlocked] = useState(false);
  const ctxRef = useRef<AudioContext | null>(null);
  useEffect(() => {
    const ctx = ringContext();
    if (!ctx) return;
    ctxRef.current = ctx;
    const stop = startPattern(ctx);
    if (ctx.state === 'suspended') setBlocked(true);
    void ctx.resume().then(() => setBlocked(ctx.state !== 'running'), () => setBlocked(true));
    return () => {
      stop();
      void ctx.suspend().catch(() => undefined);
      ctxRef.current = null;
    };
  }, []);
  if (!blocked) return null;
  return (
    <button
      type="button"
      className="button-link call-sound"
      onClick={() => void ctxRef.current?.resume().then(() => setBlocked(ctxRef.current?.state !== 'running'))}
    >
      Tap to enable sound
    </button>
  );
}
