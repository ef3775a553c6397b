import { Box, Text } from 'ink';
import { useKeys } from './shell.ts';
import { useLatestState } from './useLatestState.ts';

export interface ChecklistItem {
  value: string;
  label: string;
  description?: string;
}

/** ↑/↓ move (wrapping), space toggles, Enter confirms the checked values (in the list's order). */
export function Checklist({ items, initial = [], onSubmit }: { items: readonly ChecklistItem[]; initial?: readonly string[]; onSubmit(values: string[]): void }) {
  const [cursor, setCursor, latestCursor] = useLatestState(0);
  const [checked, setChecked, latestChecked] = useLatestState<ReadonlySet<string>>(new Set(initial));
  useKeys((input, key) => {
    if (key.return) onSubmit(items.filter((item) => latestChecked.current.has(item.value)).map((item) => item.value));
    if (items.length === 0) return;
    if (key.upArrow) setCursor((index) => (index - 1 + items.length) % items.length);
    else if (key.downArrow) setCursor((index) => (index + 1) % items.length);
    else if (input === ' ') {
      const value = items[latestCursor.current].value;
      setChecked((previous) => {
        const next = new Set(previous);
        if (next.has(value)) next.delete(value);
        else next.add(value);
        return next;
      });
    }
  });
  return (
    <Box flexDirection="column">
      {items.map((item, index) => (
        <Box key={item.value}>
          {/* Never shrunk: a long description is what gets truncated, not the checkbox and label. */}
          <Box flexShrink={0}>
            <Text color="cyan">{index === cursor ? '❯ ' : '  '}</Text>
            <Text color={checked.has(item.value) ? 'green' : undefined}>{checked.has(item.value) ? '[x] ' : '[ ] '}</Text>
            <Text bold={index === cursor}>{item.label}</Text>
          </Box>
          {item.description && <Text dimColor wrap="truncate-end">  {item.description}</Text>}
        </Box>
      ))}
      <Text dimColor>{checked.size} of {items.length} selected</Text>
    </Box>
  );
}
