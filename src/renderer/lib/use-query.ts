import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError, type DescribedError } from '../api/errors.js';

export interface QueryState<T> {
  data: T | undefined;
  error: DescribedError | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Load data from the client; re-run when `deps` change, on `reload()`, and every `intervalMs` when given.
 * Answers that arrive after a newer request started are dropped.
 */
export function useQuery<T>(
  fn: () => Promise<T>,
  deps: readonly unknown[],
  options: { intervalMs?: number; enabled?: boolean } = {},
): QueryState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<DescribedError>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  const fnRef = useRef(fn);
  fnRef.current = fn;
  const enabled = options.enabled ?? true;

  useEffect(() => {
    if (!enabled) return;
    const id = ++seq.current;
    setLoading(true);
    fnRef
      .current()
      .then((value) => {
        if (id !== seq.current) return;
        setData(value);
        setError(undefined);
      })
      .catch((err: unknown) => {
        if (id === seq.current) setError(describeError(err));
      })
      .finally(() => {
        if (id === seq.current) setLoading(false);
      });
  }, [...deps, tick, enabled]);

  useEffect(() => {
    if (!options.intervalMs || !enabled) return;
    const timer = setInterval(() => setTick((t) => t + 1), options.intervalMs);
    return () => clearInterval(timer);
  }, [options.intervalMs, enabled]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}
