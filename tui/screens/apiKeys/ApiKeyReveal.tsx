import { Box, Text } from 'ink';
import { flattenPermissions, keyStart, type ApiKey } from '../../api/apiKeys.ts';
import { formatTimestamp } from '../../api/dates.ts';
import { Field } from '../../ui/Field.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useKeys, useNavigation } from '../../ui/shell.ts';

/**
 * The only place the plaintext key ever appears: it lives in this screen's props and nowhere else, so leaving the
 * screen (Enter or Esc) forgets it; lists show `start` from then on.
 */
export function ApiKeyReveal({ created }: { created: { key: string; apiKey: ApiKey } }) {
  const navigation = useNavigation();
  useKeys((_input, key) => {
    if (key.return) navigation.back();
  });
  const { apiKey } = created;
  const permissions = flattenPermissions(apiKey.permissions);
  return (
    <Screen title="API key created" hints={[['enter', 'done, I copied it']]} backLabel="done">
      <Text>Your new API key:</Text>
      <Box borderStyle="double" borderColor="yellow" paddingX={1} alignSelf="flex-start">
        <Text bold color="yellow">
          {created.key}
        </Text>
      </Box>
      <Text color="yellow" bold>
        ⚠ Copy it now: it will not be shown again.
      </Text>
      <Text>
        The server keeps only a hash. From now on only its first characters ({keyStart(apiKey)}) are shown.
      </Text>
      <Box flexDirection="column" marginTop={1}>
        <Field label="Name">{apiKey.name}</Field>
        <Field label="Owner">{apiKey.ownerEmail}</Field>
        <Field label="Permissions">{permissions.length ? permissions.join(', ') : 'none'}</Field>
        <Field label="Expires">{formatTimestamp(apiKey.expiresAt, 'never')}</Field>
        <Field label="Send it as">x-api-key: {'<key>'}</Field>
      </Box>
    </Screen>
  );
}
