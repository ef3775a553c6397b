import { useState } from 'react';
import { Box, Text } from 'ink';
import { attachMember, listOrganizations, MEMBER_ROLES, type MemberRole, type Membership } from '../../api/memberships.ts';
import { Busy } from '../../ui/Busy.tsx';
import { Form } from '../../ui/Form.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection, useKeys } from '../../ui/shell.ts';
import { useAction, useLoad } from '../../ui/useRequest.ts';

interface Attached {
  outcome: 'created' | 'updated' | 'unchanged';
  membership: Membership;
  account: string;
}

const OUTCOME_TEXT = {
  created: 'created: a new membership',
  updated: 'updated: the role changed',
  unchanged: 'unchanged: it was already so',
} as const;

/** The idempotent upsert (ensure-organization-member): repeating it changes nothing and says so. */
export function AttachMember({ account = '' }: { account?: string }) {
  const { client } = useConnection();
  const organizations = useLoad(() => listOrganizations(client), []);
  const attach = useAction();
  const [attached, setAttached] = useState<Attached>();
  const [formKey, setFormKey] = useState(0);
  useKeys((_input, key) => {
    if (key.return) {
      setAttached(undefined);
      setFormKey((n) => n + 1);
    }
  }, attached !== undefined);

  if (attached) {
    const { membership } = attached;
    return (
      <Screen title="Membership saved" hints={[['enter', 'attach another']]}>
        <Text>
          Outcome: <Text bold color={attached.outcome === 'unchanged' ? 'yellow' : 'green'}>{OUTCOME_TEXT[attached.outcome]}</Text>
        </Text>
        <Text>
          {attached.account} is <Text bold>{membership.role}</Text> of <Text bold>{membership.organization.name}</Text>.
        </Text>
      </Screen>
    );
  }
  return (
    <Screen title="Attach an account to an organization" hints={[['↑/↓', 'field'], ['←/→', 'change choice'], ['enter', 'next / attach']]} backLabel="cancel">
      {organizations.loading && <Busy label="Loading organizations…" />}
      {organizations.failure && <ProblemView failure={organizations.failure} />}
      {organizations.data && (
        <Box flexDirection="column">
          <Text dimColor>The account by e-mail, or by username for an account of the server's e-mail domain.</Text>
          <Form
            key={formKey}
            fields={[
              { name: 'account', label: 'Account', placeholder: 'e-mail or username', validate: (value) => (value.trim() ? undefined : 'required'), errorPaths: ['body/email', 'body/userId'] },
              {
                name: 'organizationId',
                label: 'Organization',
                kind: 'choice',
                options: organizations.data.map((organization) => ({ label: organization.name, value: organization.id })),
              },
              { name: 'role', label: 'Role', kind: 'choice', options: MEMBER_ROLES.map((role) => ({ label: role, value: role })) },
            ]}
            initialValues={{ account }}
            initialFocus={account ? 1 : 0}
            busy={attach.busy}
            busyLabel="Attaching…"
            failure={attach.failure}
            onSubmit={(values) =>
              attach.run(
                () => attachMember(client, { account: values.account, organizationId: values.organizationId, role: values.role as MemberRole }),
                (result) => setAttached({ ...result, account: values.account.trim() }),
              )
            }
          />
        </Box>
      )}
    </Screen>
  );
}
