import { Text } from 'ink';
import { deleteApiKey, keyStart, type ApiKey } from '../../api/apiKeys.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

/** "No" is first, so a stray Enter keeps the key. */
export function ApiKeyDelete({ apiKey }: { apiKey: ApiKey }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const remove = useAction();
  return (
    <Screen title={`Delete API key ${apiKey.name}?`} hints={[['↑/↓', 'move'], ['enter', 'select']]}>
      <Text>
        The key <Text bold>{keyStart(apiKey)}</Text> stops working at once; whatever uses it will be refused.
      </Text>
      <SelectList
        enabled={!remove.busy}
        choices={[
          { key: 'keep', value: false, label: 'No, keep it' },
          { key: 'delete', value: true, label: `Yes, delete ${apiKey.name}` },
        ]}
        onSelect={(confirmed) => {
          if (!confirmed) return navigation.back();
          remove.run(
            () => deleteApiKey(client, apiKey.id),
            () => {
              navigation.back(2);
              navigation.notify(`Deleted API key ${apiKey.name}`);
            },
          );
        }}
      />
      {remove.busy && <Busy label="Deleting…" />}
      {remove.failure && <ProblemView failure={remove.failure} />}
    </Screen>
  );
}
