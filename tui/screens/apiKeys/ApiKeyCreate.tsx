import { useState } from 'react';
import { Box, Text } from 'ink';
import type { Account } from '../../api/accounts.ts';
import { createApiKey } from '../../api/apiKeys.ts';
import { Form } from '../../ui/Form.tsx';
import { Screen } from '../../ui/Screen.tsx';
import type { Hint } from '../../ui/shell.ts';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';
import { ApiKeyReveal } from './ApiKeyReveal.tsx';
import { OWNER_RULE, OwnerPicker } from './OwnerPicker.tsx';
import { PermissionEditor } from './PermissionEditor.tsx';

const STEPS = ['name', 'owner', 'permissions', 'expiry'] as const;
type Step = (typeof STEPS)[number];

const STEP_TITLES: Record<Step, string> = {
  name: 'name',
  owner: 'owner (a SUPERUSER account)',
  permissions: 'permissions',
  expiry: 'expiry',
};

const STEP_HINTS: Record<Step, readonly Hint[]> = {
  name: [['enter', 'next']],
  owner: [['↑/↓', 'move'], ['enter', 'choose']],
  permissions: [['↑/↓', 'move'], ['space', 'toggle'], ['enter', 'confirm']],
  expiry: [['enter', 'create the key']],
};

/** Name → owner → permissions → expiry, then the key, shown once. Esc steps back. */
export function ApiKeyCreate() {
  const { client } = useConnection();
  const navigation = useNavigation();
  const create = useAction();
  const [step, setStep] = useState<Step>('name');
  const [name, setName] = useState('');
  const [owner, setOwner] = useState<Account>();
  const [granted, setGranted] = useState(false);
  const [permissions, setPermissions] = useState<string[]>([]);
  const index = STEPS.indexOf(step);
  const previous = () => (index === 0 ? navigation.back() : setStep(STEPS[index - 1]));

  return (
    <Screen title={`Create API key · step ${index + 1} of ${STEPS.length}: ${STEP_TITLES[step]}`} hints={STEP_HINTS[step]} onBack={previous} backLabel={index === 0 ? 'cancel' : 'previous step'}>
      {index > 0 && (
        <Box flexDirection="column" marginBottom={1}>
          <Text dimColor wrap="truncate-end">
            Name: {name}
          </Text>
          {owner && index > 1 && (
            <Text dimColor wrap="truncate-end">
              Owner: {owner.email}
              {granted ? ' (given the SUPERUSER account role)' : ''}
            </Text>
          )}
          {index > 2 && (
            <Text dimColor wrap="truncate-end">
              Permissions: {permissions.length ? permissions.join(', ') : 'none'}
            </Text>
          )}
        </Box>
      )}
      {step === 'name' && (
        <Form
          fields={[{ name: 'name', label: 'Name', placeholder: 'what uses this key', validate: (value) => (value.trim() ? undefined : 'required') }]}
          initialValues={{ name }}
          onSubmit={(values) => {
            setName(values.name.trim());
            setStep('owner');
          }}
        />
      )}
      {step === 'owner' && (
        <Box flexDirection="column">
          <Text wrap="truncate-end">{OWNER_RULE}</Text>
          <OwnerPicker
            otherLines={3}
            onPick={(account, roleGiven) => {
              setOwner(account);
              setGranted(roleGiven);
              setStep('permissions');
            }}
          />
        </Box>
      )}
      {step === 'permissions' && (
        <PermissionEditor
          otherLines={3}
          initial={permissions}
          onDone={(chosen) => {
            setPermissions(chosen);
            setStep('expiry');
          }}
        />
      )}
      {step === 'expiry' && owner && (
        <Box flexDirection="column">
          <Text dimColor>YYYY-MM-DD (midnight UTC) or an ISO date-time in the future; blank = never expires.</Text>
          <Form
            fields={[{ name: 'expires', label: 'Expires', placeholder: 'blank = never', errorPaths: ['body/expiresAt'] }]}
            busy={create.busy}
            busyLabel="Creating the key…"
            failure={create.failure}
            onSubmit={(values) =>
              create.run(
                () => createApiKey(client, { name, ownerId: owner.id, permissions, expires: values.expires }),
                (created) => navigation.replace(<ApiKeyReveal created={created} />),
              )
            }
          />
        </Box>
      )}
    </Screen>
  );
}
