import { Text } from 'ink';
import type { Hint } from './shell.ts';

/** The bottom line of every screen: this screen's keys, then the ones that work everywhere. */
export function HintLine({ hints, typing, backLabel = 'back' }: { hints: readonly Hint[]; typing: boolean; backLabel?: string }) {
  const all: Hint[] = [...hints, ['esc', backLabel]];
  // While a text field has the keyboard, q and ? are letters.
  if (!typing) all.push(['q', 'quit'], ['?', 'help']);
  return (
    <Text dimColor>
      {all.map(([keys, action], index) => (
        <Text key={keys}>
          {index > 0 && ' · '}
          <Text bold>{keys}</Text> {action}
        </Text>
      ))}
    </Text>
  );
}
