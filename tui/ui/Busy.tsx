import { Text } from 'ink';
import Spinner from 'ink-spinner';

/** The spinner shown while a request runs. */
export function Busy({ label }: { label: string }) {
  return (
    <Text>
      <Text color="cyan">
        <Spinner type="dots" />
      </Text>{' '}
      {label}
    </Text>
  );
}
