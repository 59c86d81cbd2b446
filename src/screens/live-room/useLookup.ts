/**
 * A one-off lookup of the API for a live screen (the wishlist's gifts, send rank, the gift
 * task, the saved wishlist): what it answered, or why it failed, bound to a load-once actor
 * (machines/shared/load-once.machine.ts) composed once per mount. A new `key` asks again (the
 * answer for the older key is dropped by the machine); a null key asks nothing yet.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { loadOnceMachine } from '../../../machines/shared/load-once.machine';
import { selectLoadError, selectLoaded, selectLoading } from '../../../machines/shared/load-once.selectors';

export interface Lookup<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

export function useLookup<T>(key: string | null, load: () => Promise<T>): Lookup<T> {
  const loader = useRef(load);
  loader.current = load;
  const [logic] = useState(() => loadOnceMachine.provide({ actors: { load: fromPromise<unknown, void>(() => loader.current()) } }));
  const lookup = useActorRef(logic, { input: { start: key !== null } });
  const data = useSelector(lookup, selectLoaded) as T | null;
  const error = useSelector(lookup, selectLoadError);
  const loading = useSelector(lookup, selectLoading);
  const reload = useCallback(() => lookup.send({ type: 'load.reload' }), [lookup]);
  // Another key is another question: the actor is told, nothing more (its states run the load).
  const asked = useRef(key);
  useEffect(() => {
    if (key === asked.current) return;
    asked.current = key;
    if (key !== null) reload();
  }, [key, reload]);
  return { data, error, loading, reload };
}
