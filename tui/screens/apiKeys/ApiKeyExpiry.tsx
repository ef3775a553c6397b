import { Text } from 'ink';
import { setApiKeyExpiry, type ApiKey } from '../../api/apiKeys.ts';
import { Form } from '../../ui/Form.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

export function ApiKeyExpiry({ apiKey, onSaved }: { apiKey: ApiKey; onSaved(updated: ApiKey): void }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const save = useAction();
  return (
    <Screen title={`Expiry of ${apiKey.name}`} hints={[['enter', 'save']]} backLabel="cancel">
      <Text dimColor>YYYY-MM-DD (midnight UTC) or an ISO date-time in the future; blank = never expires.</Text>
      <Form
        fields={[{ name: 'expires', label: 'Expires', placeholder: 'blank = never', errorPaths: ['body/expiresAt'] }]}
        initialValues={{ expires: apiKey.expiresAt ?? '' }}
        busy={save.busy}
        failure={save.failure}
        onSubmit={(values) =>
          save.run(
            () => setApiKeyExpiry(client, apiKey.id, values.expires),
            (updated) => {
              onSaved(updated);
              navigation.back();
              navigation.notify(updated.expiresAt ? `${updated.name} now expires ${updated.expiresAt}` : `${updated.name} never expires`);
            },
          )
        }
      />
    </Screen>
  );
}
