import { useEffect, type ReactNode } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from './shell.ts';
import { useLatestState } from './useLatestState.ts';

export interface Choice<T> {
  key: string;
  label: ReactNode;
  value: T;
}

export interface SelectListProps<T> {
  choices: readonly Choice<T>[];
  onSelect(value: T): void;
  /** False while something else (a search field, a request) has the keyboard. */
  enabled?: boolean;
  /** Rows shown at once; the window follows the cursor. */
  limit?: number;
  /** Any other key, with the value under the cursor (e.g. `d` to remove it). */
  onInput?(input: string, value: T): void;
}

/** ↑/↓ move (wrapping at both ends), Enter selects. */
export function SelectList<T>({ choices, onSelect, onInput, enabled = true, limit = 12 }: SelectListProps<T>) {
  const [cursor, setCursor, latestCursor] = useLatestState(0);
  useEffect(() => {
    if (cursor >= choices.length) setCursor(Math.max(0, choices.length - 1));
  }, [choices.length, cursor, setCursor]);
  useKeys((input, key) => {
    if (choices.length === 0) return;
    if (key.upArrow) setCursor((index) => (index - 1 + choices.length) % choices.length);
    else if (key.downArrow) setCursor((index) => (index + 1) % choices.length);
    else if (key.return) onSelect(choices[Math.min(latestCursor.current, choices.length - 1)].value);
    else if (onInput && input) onInput(input, choices[Math.min(latestCursor.current, choices.length - 1)].value);
  }, enabled);

  const first = Math.min(Math.max(0, cursor - limit + 1), Math.max(0, choices.length - limit));
  const visible = choices.slice(first, first + limit);
  return (
    <Box flexDirection="column">
      {first > 0 && <Text dimColor>  ↑ {first} more</Text>}
      {visible.map((choice, index) => {
        const selected = first + index === cursor && enabled;
        return (
          <Box key={choice.key}>
            <Text color="cyan">{selected ? '❯ ' : '  '}</Text>
            {typeof choice.label === 'string' ? (
              <Text color={selected ? 'cyan' : undefined} wrap="truncate-end">
                {choice.label}
              </Text>
            ) : (
              choice.label
            )}
          </Box>
        );
      })}
      {first + limit < choices.length && <Text dimColor>  ↓ {choices.length - first - limit} more</Text>}
    </Box>
  );
}
