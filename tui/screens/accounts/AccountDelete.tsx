import { Text } from 'ink';
import { deleteAccount, type Account } from '../../api/accounts.ts';
import { Form } from '../../ui/Form.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

/** Deleting takes the account's sessions, memberships and API keys with it: the e-mail must be typed. */
export function AccountDelete({ account }: { account: Account }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const remove = useAction();
  return (
    <Screen title={`Delete ${account.email}`} hints={[['enter', 'delete']]} backLabel="cancel">
      <Text color="red">This deletes the account with its sessions, memberships and API keys. It cannot be undone.</Text>
      <Text>
        Type the account's e-mail (<Text bold>{account.email}</Text>) to confirm.
      </Text>
      <Form
        fields={[{ name: 'confirm', label: 'E-mail' }]}
        busy={remove.busy}
        busyLabel="Deleting…"
        failure={remove.failure}
        onSubmit={(values) =>
          remove.run(
            () => deleteAccount(client, account, values.confirm),
            () => {
              // Past the account's own screen, which has nothing left to show.
              navigation.back(2);
              navigation.notify(`Deleted ${account.email}`);
            },
          )
        }
      />
    </Screen>
  );
}
