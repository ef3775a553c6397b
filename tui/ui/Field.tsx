import { isValidElement, type ReactNode } from 'react';
import { Box, Text } from 'ink';

/** A labelled value on a detail screen. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Box width={14}>
        <Text dimColor>{label}</Text>
      </Box>
      {isValidElement(children) ? children : <Text>{children}</Text>}
    </Box>
  );
}
