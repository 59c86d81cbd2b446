/**
 * The app's first render, as a transition: React renders it in slices of a few milliseconds and
 * lets the browser handle what waits (a tap, a response, a frame) between them. As an ordinary
 * update it was one task of 30–50 ms, 120–200 at a phone's 4× slowdown, before the first screen.
 */
import { startTransition } from 'react';
import type { ReactNode } from 'react';
import type { Root } from 'react-dom/client';

export function renderInSlices(root: Root, app: ReactNode): void {
  startTransition(() => root.render(app));
}
