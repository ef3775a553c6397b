import { useCallback, useEffect, useRef, useState } from 'react';
import { toFailure, type Failure } from '../api/failure.ts';

export interface Loaded<T> {
  data?: T;
  failure?: Failure;
  loading: boolean;
  reload(): void;
}

/**
 * Runs `load` now and whenever `deps` change or `reload()` is called. Keeps the last data while reloading, and
 * only the newest answer counts (a slow page 1 never overwrites page 2).
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; failure?: Failure; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const ticket = ++latest.current;
    setState((previous) => ({ data: previous.data, loading: true }));
    load().then(
      (data) => ticket === latest.current && setState({ data, loading: false }),
      (error: unknown) => ticket === latest.current && setState((previous) => ({ data: previous.data, failure: toFailure(error), loading: false })),
    );
    // `load` is a fresh closure every render; `deps` say when it means something new.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { ...state, reload };
}

export interface Action {
  busy: boolean;
  failure?: Failure;
  /** Runs one request; a failure is kept for display (never thrown), success goes to `onDone`. */
  run<T>(request: () => Promise<T>, onDone: (value: T) => void): void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>();
  const running = useRef(false);
  const run = useCallback(<T,>(request: () => Promise<T>, onDone: (value: T) => void) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setFailure(undefined);
    request().then(
      (value) => {
        running.current = false;
        setBusy(false);
        onDone(value);
      },
      (error: unknown) => {
        running.current = false;
        setBusy(false);
        setFailure(toFailure(error));
      },
    );
  }, []);
  return { busy, failure, run };
}
