import { Text } from 'ink';
import { flattenPermissions, setApiKeyPermissions, type ApiKey } from '../../api/apiKeys.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';
import { PermissionEditor } from './PermissionEditor.tsx';

/** The creation checklist, ticked with the key's current permissions; Enter replaces them (at once, for the key too). */
export function ApiKeyPermissions({ apiKey, onSaved }: { apiKey: ApiKey; onSaved(updated: ApiKey): void }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const save = useAction();
  return (
    <Screen title={`Permissions of ${apiKey.name}`} hints={[['↑/↓', 'move'], ['space', 'tick / untick'], ['enter', 'save']]} backLabel="cancel">
      <Text dimColor wrap="truncate-end">
        Enter saves: the key holds exactly the ticked permissions from then on.
      </Text>
      <PermissionEditor
        otherLines={1}
        initial={flattenPermissions(apiKey.permissions)}
        onDone={(permissions) =>
          save.run(
            () => setApiKeyPermissions(client, apiKey.id, permissions),
            (updated) => {
              onSaved(updated);
              navigation.back();
              const held = flattenPermissions(updated.permissions);
              navigation.notify(`${updated.name} now holds ${held.length ? held.join(', ') : 'no permissions'}`);
            },
          )
        }
      />
      {save.busy && <Busy label="Saving…" />}
      {save.failure && <ProblemView failure={save.failure} />}
    </Screen>
  );
}
