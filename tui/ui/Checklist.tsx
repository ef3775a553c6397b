import { Box, Text } from 'ink';
import { SCREEN_CHROME_LINES } from './Screen.tsx';
import { useKeys } from './shell.ts';
import { useTerminalSize } from './Table.tsx';
import { useLatestState } from './useLatestState.ts';

export interface ChecklistItem {
  value: string;
  label: string;
  description?: string;
}

/** The checklist's own lines besides its rows: "↑ N more", "↓ N more" and the count. */
const OWN_LINES = 3;
const MIN_ROWS = 3;

/** Rows of a checklist that fit the terminal, given the lines the rest of its screen takes (besides the chrome). */
export function checklistRows(terminalRows: number, otherLines: number): number {
  return Math.max(MIN_ROWS, terminalRows - SCREEN_CHROME_LINES - otherLines - OWN_LINES);
}

/** The first row shown so the cursor stays in a window of `limit` rows (it moves only when the cursor leaves it). */
export function windowStart(previousStart: number, cursor: number, limit: number, count: number): number {
  let start = previousStart;
  if (cursor < start) start = cursor;
  else if (cursor >= start + limit) start = cursor - limit + 1;
  return Math.max(0, Math.min(start, Math.max(0, count - limit)));
}

export interface ChecklistProps {
  items: readonly ChecklistItem[];
  initial?: readonly string[];
  onSubmit(values: string[]): void;
  /** Lines the screen shows besides its title, hint line and this list (e.g. a summary above it). */
  otherLines?: number;
}

/**
 * ↑/↓ move (wrapping), space toggles, Enter confirms the checked values (in the list's order). Only the rows that
 * fit the terminal are drawn, in a window that follows the cursor, so the screen's title stays on screen however
 * long the list (52 permissions at 80×24); "↑ N more" / "↓ N more" say what is above and below.
 */
export function Checklist({ items, initial = [], onSubmit, otherLines = 0 }: ChecklistProps) {
  const { rows } = useTerminalSize();
  const limit = checklistRows(rows, otherLines);
  const [cursor, setCursor, latestCursor] = useLatestState(0);
  const [start, setStart] = useLatestState(0);
  const [checked, setChecked, latestChecked] = useLatestState<ReadonlySet<string>>(new Set(initial));
  const move = (to: number) => {
    setCursor(to);
    setStart((previous) => windowStart(previous, to, limit, items.length));
  };
  useKeys((input, key) => {
    if (key.return) onSubmit(items.filter((item) => latestChecked.current.has(item.value)).map((item) => item.value));
    if (items.length === 0) return;
    const at = latestCursor.current;
    if (key.upArrow) move((at - 1 + items.length) % items.length);
    else if (key.downArrow) move((at + 1) % items.length);
    else if (key.pageUp) move(Math.max(0, at - limit));
    else if (key.pageDown) move(Math.min(items.length - 1, at + limit));
    else if (input === ' ') {
      const value = items[at].value;
      setChecked((previous) => {
        const next = new Set(previous);
        if (next.has(value)) next.delete(value);
        else next.add(value);
        return next;
      });
    }
  });
  // A resize can shrink the window under the cursor: keep the cursor inside it.
  const first = windowStart(start, cursor, limit, items.length);
  const visible = items.slice(first, first + limit);
  const below = items.length - first - visible.length;
  return (
    <Box flexDirection="column">
      <Text dimColor>{first > 0 ? `  ↑ ${first} more` : ' '}</Text>
      {visible.map((item, index) => {
        const here = first + index === cursor;
        return (
          <Box key={item.value}>
            {/* The mark and the label keep their width; only the description gives way (truncated). */}
            <Box flexShrink={0}>
              <Text color="cyan">{here ? '❯ ' : '  '}</Text>
              <Text color={checked.has(item.value) ? 'green' : undefined}>{checked.has(item.value) ? '[x] ' : '[ ] '}</Text>
              <Text bold={here}>{item.label}</Text>
            </Box>
            {item.description && (
              <Text dimColor wrap="truncate-end">
                {'  '}
                {item.description}
              </Text>
            )}
          </Box>
        );
      })}
      <Text dimColor>{below > 0 ? `  ↓ ${below} more` : ' '}</Text>
      <Text dimColor>
        {checked.size} of {items.length} selected{items.length > 0 ? ` · row ${cursor + 1} of ${items.length}` : ''}
      </Text>
    </Box>
  );
}
