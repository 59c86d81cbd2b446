/** Lets the browser handle what waits (a tap, a frame, a response) before the start goes on. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => { setTimeout(resolve, 0); });
}
