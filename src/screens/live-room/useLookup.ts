/**
 * A one-off lookup of the API for a live screen (the wishlist's gifts, send rank, the gift
 * task, stats after a reload): what it answered, or why it failed. Runs again when `key`
 * changes or on `reload`; a null key runs nothing. An answer for an older key is dropped.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Lookup<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

export function useLookup<T>(key: string | null, load: () => Promise<T>): Lookup<T> {
  const loader = useRef(load);
  loader.current = load;
  const [round, setRound] = useState(0);
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({ data: null, error: null, loading: key !== null });
  useEffect(() => {
    if (key === null) return;
    let current = true;
    setState((s) => ({ ...s, error: null, loading: true }));
    loader.current().then(
      (data) => { if (current) setState({ data, error: null, loading: false }); },
      (error: unknown) => { if (current) setState((s) => ({ data: s.data, error: error instanceof Error ? error.message : String(error), loading: false })); },
    );
    return () => { current = false; };
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}
