import { useState } from 'react';
import { Box, Text } from 'ink';
import { RESET_CONFIRMATION, resetDatabase } from '../../api/maintenance.ts';
import { Form } from '../../ui/Form.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

/** Typed confirmation; a refusal by the server (403 reset_refused in production) is shown as the server's. */
export function ResetDatabase() {
  const { client } = useConnection();
  const reset = useAction();
  const [done, setDone] = useState<{ rolledBack: string[]; applied: string[] }>();
  if (done) {
    return (
      <Screen title="Database reset" hints={[]}>
        <Text color="green">
          ✔ Reset: {done.rolledBack.length} migrations rolled back, {done.applied.length} applied again.
        </Text>
        <Text>Every account, session, membership and API key is gone. Run the seeder next.</Text>
      </Screen>
    );
  }
  const refusedByServer = reset.failure?.status !== undefined;
  return (
    <Screen title="Reset the database" hints={[['enter', 'reset']]} backLabel="cancel">
      <Text color="red" bold>
        This destroys every account, session, membership and API key, and rebuilds the schema.
      </Text>
      <Text>Superuser tokens from the environment keep working; run the seeder afterwards.</Text>
      <Text>
        Type <Text bold>{RESET_CONFIRMATION}</Text> to confirm.
      </Text>
      <Box marginTop={1}>
        <Form
          fields={[{ name: 'confirm', label: 'Confirmation' }]}
          busy={reset.busy}
          busyLabel="Resetting the database…"
          failure={reset.failure}
          failureHeading={refusedByServer ? 'The server refused the reset:' : undefined}
          onSubmit={(values) => reset.run(() => resetDatabase(client, values.confirm), setDone)}
        />
      </Box>
    </Screen>
  );
}
