import { Text } from 'ink';
import { ACCOUNT_ROLES, createAccount, type AccountRole } from '../../api/accounts.ts';
import { Form } from '../../ui/Form.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';
import { passwordRule, required, roleOptions } from './fields.ts';

export function AccountCreate() {
  const { client } = useConnection();
  const navigation = useNavigation();
  const create = useAction();
  return (
    <Screen title="Create account" hints={[['↑/↓', 'field'], ['enter', 'next / create']]} backLabel="cancel">
      <Text dimColor>A username without @ becomes username@ the server's e-mail domain.</Text>
      <Form
        fields={[
          { name: 'login', label: 'E-mail or username', validate: required, errorPaths: ['body/email', 'body/username'] },
          { name: 'name', label: 'Name', validate: required },
          { name: 'password', label: 'Password', kind: 'password', validate: passwordRule(false) },
          { name: 'role', label: 'Account role', kind: 'choice', options: roleOptions },
        ]}
        initialValues={{ role: ACCOUNT_ROLES[0] }}
        busy={create.busy}
        busyLabel="Creating the account…"
        failure={create.failure}
        onSubmit={(values) =>
          create.run(
            () => createAccount(client, { login: values.login, name: values.name, password: values.password, role: values.role as AccountRole }),
            (account) => {
              navigation.back();
              navigation.notify(`Created ${account.email}`);
            },
          )
        }
      />
    </Screen>
  );
}
