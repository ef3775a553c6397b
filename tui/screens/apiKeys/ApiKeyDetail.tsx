import { useState } from 'react';
import { Box, Text } from 'ink';
import { flattenPermissions, keyStart, setApiKeyEnabled, type ApiKey } from '../../api/apiKeys.ts';
import { formatTimestamp } from '../../api/dates.ts';
import { Busy } from '../../ui/Busy.tsx';
import { Field } from '../../ui/Field.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';
import { ApiKeyDelete } from './ApiKeyDelete.tsx';
import { ApiKeyExpiry } from './ApiKeyExpiry.tsx';
import { ApiKeyPermissions } from './ApiKeyPermissions.tsx';
import { ApiKeyRename } from './ApiKeyRename.tsx';

type KeyAction = 'toggle' | 'rename' | 'permissions' | 'expiry' | 'delete';

/** One key (never the key itself: its first characters) and what can be done to it. */
export function ApiKeyDetail(props: { apiKey: ApiKey }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const [apiKey, setApiKey] = useState(props.apiKey);
  const toggle = useAction();

  function act(action: KeyAction) {
    if (action === 'rename') navigation.push(<ApiKeyRename apiKey={apiKey} onSaved={setApiKey} />);
    else if (action === 'permissions') navigation.push(<ApiKeyPermissions apiKey={apiKey} onSaved={setApiKey} />);
    else if (action === 'expiry') navigation.push(<ApiKeyExpiry apiKey={apiKey} onSaved={setApiKey} />);
    else if (action === 'delete') navigation.push(<ApiKeyDelete apiKey={apiKey} />);
    else
      toggle.run(
        () => setApiKeyEnabled(client, apiKey.id, !apiKey.enabled),
        (updated) => {
          setApiKey(updated);
          navigation.notify(`${updated.name} is ${updated.enabled ? 'enabled' : 'disabled'}`);
        },
      );
  }

  const permissions = flattenPermissions(apiKey.permissions);
  return (
    <Screen title={`API key ${apiKey.name}`} hints={[['↑/↓', 'move'], ['enter', 'select']]}>
      <Field label="Name">{apiKey.name}</Field>
      <Field label="Key">{keyStart(apiKey)}</Field>
      <Field label="Owner">{apiKey.ownerEmail}</Field>
      <Field label="Enabled">
        <Text color={apiKey.enabled ? 'green' : 'red'}>{apiKey.enabled ? 'yes' : 'no'}</Text>
      </Field>
      <Field label="Expires">{formatTimestamp(apiKey.expiresAt, 'never')}</Field>
      <Field label="Last used">{formatTimestamp(apiKey.lastUsedAt, 'never')}</Field>
      <Field label="Requests">{String(apiKey.requestCount)}</Field>
      <Field label="Permissions">
        <Text wrap="truncate-end">{permissions.length ? permissions.join(', ') : 'none'}</Text>
      </Field>
      <Field label="Created">{formatTimestamp(apiKey.createdAt)}</Field>
      <Box marginTop={1} flexDirection="column">
        <SelectList<KeyAction>
          enabled={!toggle.busy}
          choices={[
            { key: 'toggle', value: 'toggle', label: apiKey.enabled ? 'Disable' : 'Enable' },
            { key: 'rename', value: 'rename', label: 'Rename' },
            { key: 'permissions', value: 'permissions', label: 'Edit permissions' },
            { key: 'expiry', value: 'expiry', label: 'Change expiry' },
            { key: 'delete', value: 'delete', label: 'Delete…' },
          ]}
          onSelect={act}
        />
      </Box>
      {toggle.busy && <Busy label="Saving…" />}
      {toggle.failure && <ProblemView failure={toggle.failure} />}
    </Screen>
  );
}
