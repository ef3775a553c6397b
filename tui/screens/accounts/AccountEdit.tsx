import { Text } from 'ink';
import { updateAccount, type Account, type AccountRole } from '../../api/accounts.ts';
import { Form } from '../../ui/Form.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';
import { passwordRule, required, roleOptions } from './fields.ts';

/** Only what changed is sent; a new password signs the account out everywhere and removes its passkeys. */
export function AccountEdit({ account }: { account: Account }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const save = useAction();
  return (
    <Screen title={`Edit ${account.email}`} hints={[['↑/↓', 'field'], ['enter', 'next / save']]} backLabel="cancel">
      <Text dimColor>Leave the password blank to keep it; a new one signs the account out everywhere and removes its passkeys.</Text>
      <Form
        fields={[
          { name: 'name', label: 'Name', validate: required },
          { name: 'email', label: 'E-mail', validate: required },
          { name: 'password', label: 'New password', kind: 'password', validate: passwordRule(true) },
          { name: 'role', label: 'Account role', kind: 'choice', options: roleOptions },
        ]}
        initialValues={{ name: account.name, email: account.email, role: account.role }}
        busy={save.busy}
        failure={save.failure}
        onSubmit={(values) =>
          save.run(
            () => updateAccount(client, account, { name: values.name, email: values.email, password: values.password, role: values.role as AccountRole }),
            (updated) => {
              navigation.back();
              navigation.notify(updated ? `Saved ${updated.email}` : 'Nothing changed');
            },
          )
        }
      />
    </Screen>
  );
}
