import { useCallback, useRef, useState } from 'react';

/**
 * State whose newest value key handlers can read at once: keys that arrive in one chunk (a fast typist, a paste,
 * `tmux send-keys Down Enter`) are handled one after the other before React renders again.
 */
export function useLatestState<T>(initial: T): [T, (next: T | ((previous: T) => T)) => void, { readonly current: T }] {
  const [value, setValue] = useState(initial);
  const latest = useRef(initial);
  const set = useCallback((next: T | ((previous: T) => T)) => {
    latest.current = typeof next === 'function' ? (next as (previous: T) => T)(latest.current) : next;
    setValue(latest.current);
  }, []);
  return [value, set, latest];
}
