import { isValidElement, type ReactNode } from 'react';
import { Box, Text } from 'ink';

/** A labelled value on a detail screen; a text value is one line, cut with `…` (a long e-mail never wraps). */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Box width={14}>
        <Text dimColor>{label}</Text>
      </Box>
      {isValidElement(children) ? children : <Text wrap="truncate-end">{children}</Text>}
    </Box>
  );
}
