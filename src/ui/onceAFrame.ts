/**
 * Runs `work` at most once a frame, in the frame's animation callback. Scroll handlers that read
 * layout (scrollTop, scrollHeight) use it: read in the scroll event itself, after a virtualised
 * list has re-rendered synchronously, they would force a layout of their own each event; read
 * in the frame's callback, the layout the frame needs anyway is done once.
 */
export interface FrameTask {
  (): void;
  cancel(): void;
}

export function onceAFrame(work: () => void): FrameTask {
  let frame: number | null = null;
  const run = (() => {
    if (frame !== null) return;
    frame = requestAnimationFrame(() => {
      frame = null;
      work();
    });
  }) as FrameTask;
  run.cancel = () => {
    if (frame !== null) cancelAnimationFrame(frame);
    frame = null;
  };
  return run;
}
