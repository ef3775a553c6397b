import { Text } from 'ink';
import { banAccount, type Account } from '../../api/accounts.ts';
import { Form } from '../../ui/Form.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

export function AccountBan({ account }: { account: Account }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const ban = useAction();
  return (
    <Screen title={`Ban ${account.email}`} hints={[['↑/↓', 'field'], ['enter', 'next / ban']]} backLabel="cancel">
      <Text dimColor>Banning signs the account out everywhere and removes its passkeys. Expiry: YYYY-MM-DD or an ISO date-time; blank = until unbanned.</Text>
      <Form
        fields={[
          { name: 'reason', label: 'Reason', placeholder: 'optional', errorPaths: ['body/banReason'] },
          { name: 'expires', label: 'Expires', placeholder: 'blank = never', errorPaths: ['body/banExpiresAt'] },
        ]}
        busy={ban.busy}
        busyLabel="Banning…"
        failure={ban.failure}
        onSubmit={(values) =>
          ban.run(
            () => banAccount(client, account.id, { reason: values.reason, expires: values.expires }),
            (banned) => {
              navigation.back();
              navigation.notify(`Banned ${banned.email}`);
            },
          )
        }
      />
    </Screen>
  );
}
