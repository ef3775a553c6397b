import { Box, Text } from 'ink';
import type { Failure } from '../api/failure.ts';

/** A problem+json answer (or a network failure) by title and detail, with its field errors. */
export function ProblemView({ failure, heading }: { failure: Failure; heading?: string }) {
  const reference = [failure.status, failure.code].filter(Boolean).join(' · ');
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="red" paddingX={1}>
      {heading && <Text color="red">{heading}</Text>}
      <Text color="red" bold>
        ✖ {failure.title}
      </Text>
      {failure.detail && <Text>{failure.detail}</Text>}
      {failure.errors.map((error) => (
        <Text key={`${error.path}:${error.message}`}>
          {'  • '}
          <Text bold>{error.path}</Text>: {error.message}
        </Text>
      ))}
      {reference && <Text dimColor>{reference}</Text>}
    </Box>
  );
}
