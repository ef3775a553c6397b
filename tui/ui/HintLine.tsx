import { Text } from 'ink';
import type { Hint } from './shell.ts';
import { useTerminalWidth } from './Table.tsx';

const SEPARATOR = ' · ';
const MORE: Hint = ['…', ''];

const width = (hints: readonly Hint[]) => hints.reduce((sum, [keys, action], index) => sum + (index > 0 ? SEPARATOR.length : 0) + [...(action ? `${keys} ${action}` : keys)].length, 0);

/**
 * The hints that fit one line of `columns` characters: the keys that work everywhere (esc, q, ?) always, and this
 * screen's own keys in order while they fit; when some do not, `…` marks the cut (the help screen, `?`, lists
 * every key). A hint line never wraps.
 */
export function fitHints(screenHints: readonly Hint[], everywhere: readonly Hint[], columns: number): Hint[] {
  if (width([...screenHints, ...everywhere]) <= columns) return [...screenHints, ...everywhere];
  const shown: Hint[] = [];
  for (const hint of screenHints) {
    if (width([...shown, hint, MORE, ...everywhere]) > columns) break;
    shown.push(hint);
  }
  return [...shown, MORE, ...everywhere];
}

/** The bottom line of every screen: this screen's keys, then the ones that work everywhere. */
export function HintLine({ hints, typing, backLabel = 'back' }: { hints: readonly Hint[]; typing: boolean; backLabel?: string }) {
  const columns = useTerminalWidth();
  const everywhere: Hint[] = [['esc', backLabel]];
  // While a text field has the keyboard, q and ? are letters.
  if (!typing) everywhere.push(['q', 'quit'], ['?', 'help']);
  const all = fitHints(hints, everywhere, columns - 1);
  return (
    <Text dimColor wrap="truncate-end">
      {all.map(([keys, action], index) => (
        <Text key={keys}>
          {index > 0 && SEPARATOR}
          <Text bold>{keys}</Text>
          {action ? ` ${action}` : ''}
        </Text>
      ))}
    </Text>
  );
}
