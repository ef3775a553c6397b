import { renameApiKey, type ApiKey } from '../../api/apiKeys.ts';
import { Form } from '../../ui/Form.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

export function ApiKeyRename({ apiKey, onSaved }: { apiKey: ApiKey; onSaved(updated: ApiKey): void }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const save = useAction();
  return (
    <Screen title={`Rename API key ${apiKey.name}`} hints={[['enter', 'save']]} backLabel="cancel">
      <Form
        fields={[{ name: 'name', label: 'Name', validate: (value) => (value.trim() ? undefined : 'required') }]}
        initialValues={{ name: apiKey.name }}
        busy={save.busy}
        failure={save.failure}
        onSubmit={(values) =>
          save.run(
            () => renameApiKey(client, apiKey.id, values.name),
            (updated) => {
              onSaved(updated);
              navigation.back();
              navigation.notify(`Renamed to ${updated.name}`);
            },
          )
        }
      />
    </Screen>
  );
}
