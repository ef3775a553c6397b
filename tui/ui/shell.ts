import { createContext, useContext, useEffect, useLayoutEffect, useRef, type ReactElement } from 'react';
import { useInput, type Key } from 'ink';
import type { Connection } from '../api/client.ts';

/** A key and what it does on this screen, as the hint line and the help show it: `['←/→', 'page']`. */
export type Hint = readonly [keys: string, action: string];

export interface HelpTopic {
  title: string;
  hints: readonly Hint[];
}

/** Where a screen sits: only the active one (top of the stack, help closed) receives keys. */
export interface ScreenPlace {
  active: boolean;
  /** On top of the stack (help may cover it). */
  onTop: boolean;
}

export interface Shell {
  /** A text field has the keyboard: `q` and `?` are letters then, not commands. */
  setTyping(typing: boolean): void;
  typing: boolean;
  showHelpFor(topic: HelpTopic): void;
  notice?: string;
  pageSize: number;
  /** Where downloaded files (the night's lists) are saved. */
  downloadDir: string;
}

export interface Navigation {
  push(screen: ReactElement): void;
  /** Replaces the top screen (a finished wizard by its result). */
  replace(screen: ReactElement): void;
  back(steps?: number): void;
  /** A one-line confirmation shown on the next screen until the one after. */
  notify(message: string): void;
  disconnect(): void;
}

export const ScreenContext = createContext<ScreenPlace>({ active: true, onTop: true });
export const ShellContext = createContext<Shell | null>(null);
export const NavigationContext = createContext<Navigation | null>(null);
export const ConnectionContext = createContext<Connection | null>(null);

export const useScreen = () => useContext(ScreenContext);

export function useShell(): Shell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell outside <App>');
  return shell;
}

export function useNavigation(): Navigation {
  const navigation = useContext(NavigationContext);
  if (!navigation) throw new Error('useNavigation outside a connected <App>');
  return navigation;
}

export function useConnection(): Connection {
  const connection = useContext(ConnectionContext);
  if (!connection) throw new Error('useConnection outside a connected <App>');
  return connection;
}

/** Keys for the active screen only (hidden screens under it and the help overlay keep theirs quiet). */
export function useKeys(handler: (input: string, key: Key) => void, enabled = true): void {
  const { active } = useScreen();
  useInput(handler, { isActive: active && enabled });
}

/** Declares that a text field of the active screen has the keyboard. */
export function useTyping(typing: boolean): void {
  const { active } = useScreen();
  const { setTyping } = useShell();
  const on = active && typing;
  // A layout effect: the app knows before the next key arrives (a passive effect could let a `q` through).
  useLayoutEffect(() => {
    if (!on) return;
    setTyping(true);
    return () => setTyping(false);
  }, [on, setTyping]);
}

/** Runs `refresh` when the screen comes back on top (something pushed over it was closed). */
export function useOnReturn(refresh: () => void): void {
  const { onTop } = useScreen();
  const wasOnTop = useRef(onTop);
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    if (onTop && !wasOnTop.current) latest.current();
    wasOnTop.current = onTop;
  }, [onTop]);
}

/** `1 queue`, `3 queues`: a count with its noun in the right number. */
export const counted = (count: number, singular: string, plural = `${singular}s`): string => `${count} ${count === 1 ? singular : plural}`;
