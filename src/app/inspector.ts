/**
 * `?inspect=1` opens the Stately inspector on the root actor (every child shows). Off by
 * default, and then the inspector's code is not even loaded, so it makes no request.
 */
import type { InspectionEvent, Observer } from 'xstate';

export async function startInspector(search: string): Promise<Observer<InspectionEvent> | null> {
  const flag = new URLSearchParams(search).get('inspect');
  if (flag === null || flag === '0' || flag === 'false') return null;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return createBrowserInspector().inspect;
}
