import { Box, Text } from 'ink';

/** One table row: each cell a fixed width, cut with an ellipsis rather than wrapped. */
export function Row({ cells, header = false }: { cells: ReadonlyArray<readonly [text: string, width: number]>; header?: boolean }) {
  return (
    <Box>
      {cells.map(([text, width], index) => (
        <Box key={index} width={width} marginRight={1}>
          <Text wrap="truncate-end" bold={header} dimColor={header}>
            {text}
          </Text>
        </Box>
      ))}
    </Box>
  );
}
