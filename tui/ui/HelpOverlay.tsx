import { Box, Text } from 'ink';
import type { HelpTopic, Hint } from './shell.ts';

const EVERYWHERE: readonly Hint[] = [
  ['↑/↓', 'move (wraps around at both ends)'],
  ['enter', 'select, confirm, or go to the next field'],
  ['esc', 'go back (from the main menu: disconnect)'],
  ['q', 'quit (not while typing in a text field)'],
  ['?', 'show or hide this help (not while typing)'],
];

/** `?`: every key of the current screen, then the ones that work everywhere. */
export function HelpOverlay({ topic }: { topic?: HelpTopic }) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold color="cyan">
        Help{topic ? `: ${topic.title}` : ''}
      </Text>
      {topic && topic.hints.length > 0 && (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>On this screen</Text>
          <Keys hints={topic.hints} />
        </Box>
      )}
      <Box flexDirection="column" marginTop={1}>
        <Text bold>Everywhere</Text>
        <Keys hints={EVERYWHERE} />
      </Box>
      <Box marginTop={1}>
        <Text dimColor>
          <Text bold>esc</Text> or <Text bold>?</Text> close help · <Text bold>q</Text> quit
        </Text>
      </Box>
    </Box>
  );
}

function Keys({ hints }: { hints: readonly Hint[] }) {
  return (
    <>
      {hints.map(([keys, action]) => (
        <Box key={keys}>
          <Box width={12}>
            <Text color="cyan">{keys}</Text>
          </Box>
          <Text>{action}</Text>
        </Box>
      ))}
    </>
  );
}
