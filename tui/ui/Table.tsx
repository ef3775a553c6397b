import { useEffect, useState, type ReactNode } from 'react';
import { Box, Text, useStdout } from 'ink';
import { SelectList, type Choice } from './SelectList.tsx';

/**
 * Tables that fit the terminal (the app's users sit at 80×24): every cell is cut with `…` or padded to its
 * column's width, so a row is one line of known width, never wrapped, and the header lines up with its cells.
 */
export interface Column {
  header: string;
  /** A fixed width; otherwise the column shares what is left with the other flexible ones. */
  width?: number;
  /** Flexible columns: the least width (default: the header's) and the share of what is left (default 1). */
  min?: number;
  grow?: number;
  align?: 'left' | 'right';
}

/** Space between two columns. */
export const GAP = 1;
/** The list cursor (`❯ `) in front of every selectable row. */
export const CURSOR = 2;

/** Column widths adding up (with the gaps) to at most `total` characters. */
export function fitColumns(columns: readonly Column[], total: number): number[] {
  const available = Math.max(0, total - GAP * (columns.length - 1));
  const widths = columns.map((column) => column.width ?? column.min ?? column.header.length);
  let left = available - widths.reduce((sum, width) => sum + width, 0);
  const flexible = columns.map((column, index) => (column.width === undefined ? index : -1)).filter((index) => index >= 0);
  const shares = flexible.reduce((sum, index) => sum + (columns[index].grow ?? 1), 0);
  if (left > 0 && shares > 0) {
    const extra = left;
    for (const index of flexible) {
      const add = Math.floor((extra * (columns[index].grow ?? 1)) / shares);
      widths[index] += add;
      left -= add;
    }
    // What rounding left over goes to the first flexible column.
    if (flexible.length) widths[flexible[0]] += left;
  }
  return widths;
}

/** One line of text exactly `width` characters wide: cut with `…`, or padded. Control characters become spaces. */
export function fitCell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const characters = [...text.replace(/[\u0000-\u001f\u007f]/g, ' ')];
  if (width <= 0) return '';
  const cut = characters.length > width ? [...characters.slice(0, width - 1), '…'].join('') : characters.join('');
  const pad = ' '.repeat(width - [...cut].length);
  return align === 'right' ? pad + cut : cut + pad;
}

/** The cells of one row as a single line (`widths` from `fitColumns`). */
export function formatRow(cells: readonly string[], widths: readonly number[], columns?: readonly Column[]): string {
  return widths
    .map((width, index) => fitCell(cells[index] ?? '', width, columns?.[index]?.align))
    .join(' '.repeat(GAP))
    .replace(/\s+$/, '');
}

/** The size the app is designed for, assumed when the terminal does not say (a pipe, ink-testing-library). */
export const DEFAULT_SIZE = { columns: 80, rows: 24 } as const;

/** The terminal's columns and rows (80×24 when it does not say), following resizes. */
export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || DEFAULT_SIZE.columns, rows: stdout.rows || DEFAULT_SIZE.rows });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const update = () => setSize(read());
    stdout.on('resize', update);
    return () => {
      stdout.off('resize', update);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout]);
  return size;
}

/** The terminal's width in columns (80 when it does not say), following resizes. */
export function useTerminalWidth(): number {
  return useTerminalSize().columns;
}

/** `text` cut to `width` characters with `…` at the end (never padded). */
export function ellipsize(text: string, width: number): string {
  const characters = [...text];
  if (characters.length <= width) return text;
  return width <= 0 ? '' : [...characters.slice(0, width - 1), '…'].join('');
}

/** Widths for `columns` in the terminal, leaving room for the cursor (selectable rows) and a margin. */
export function useColumnWidths(columns: readonly Column[], options: { cursor?: boolean } = {}): number[] {
  const terminal = useTerminalWidth();
  return fitColumns(columns, terminal - (options.cursor === false ? 0 : CURSOR) - 1);
}

export function TableHeader({ columns, widths, cursor = true }: { columns: readonly Column[]; widths: readonly number[]; cursor?: boolean }) {
  return (
    <Box marginLeft={cursor ? CURSOR : 0}>
      <Text bold dimColor wrap="truncate-end">
        {formatRow(
          columns.map((column) => column.header),
          widths,
          columns,
        )}
      </Text>
    </Box>
  );
}

export interface TableRow<T> {
  key: string;
  value: T;
  cells: readonly string[];
}

export interface TableListProps<T> {
  columns: readonly Column[];
  rows: readonly TableRow<T>[];
  /** Choices above the rows (e.g. "+ Create …"), outside the table's columns. */
  before?: readonly Choice<T>[];
  onSelect(value: T): void;
  /** Keys other than ↑/↓/Enter, with the value under the cursor (e.g. `d` to remove it). */
  onInput?(input: string, value: T): void;
  enabled?: boolean;
  limit?: number;
  /** Shown instead of the rows when there are none. */
  empty?: ReactNode;
}

/** A header over a SelectList whose rows are the table's lines. */
export function TableList<T>({ columns, rows, before = [], onSelect, onInput, enabled, limit, empty }: TableListProps<T>) {
  const widths = useColumnWidths(columns);
  const choices: Choice<T>[] = [...before, ...rows.map((row) => ({ key: row.key, value: row.value, label: formatRow(row.cells, widths, columns) }))];
  return (
    <Box flexDirection="column">
      <TableHeader columns={columns} widths={widths} />
      <SelectList choices={choices} onSelect={onSelect} onInput={onInput} enabled={enabled} limit={limit} />
      {rows.length === 0 && empty}
    </Box>
  );
}

/** A table that is only read (no cursor). */
export function StaticTable({ columns, rows }: { columns: readonly Column[]; rows: ReadonlyArray<readonly string[]> }) {
  const widths = useColumnWidths(columns, { cursor: false });
  return (
    <Box flexDirection="column">
      <TableHeader columns={columns} widths={widths} cursor={false} />
      {rows.map((cells, index) => (
        <Text key={index} wrap="truncate-end">
          {formatRow(cells, widths, columns)}
        </Text>
      ))}
    </Box>
  );
}
