import { useState } from 'react';
import { Box, Text } from 'ink';
import { SEED_ACCOUNTS, type SeedReport } from '../../../seed/index.ts';
import { runSeeder } from '../../api/maintenance.ts';
import { Form } from '../../ui/Form.tsx';
import { Row } from '../../ui/Row.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

const seedPassword = (value: string) => (value && value.length < 8 ? 'at least 8 characters (or blank)' : undefined);

/** The seeder through the API: each dashboard account attached to the canonical organization, created if missing. */
export function Seeder() {
  const { client } = useConnection();
  const seeding = useAction();
  const [report, setReport] = useState<SeedReport[]>();
  if (report) {
    return (
      <Screen title="Seeder report" hints={[]}>
        <Row header cells={[['ACCOUNT', 14], ['ACCOUNT STATE', 16], ['MEMBERSHIP', 12]]} />
        {report.map((line) => (
          <Row key={line.username} cells={[[line.username, 14], [line.account, 16], [line.membership, 12]]} />
        ))}
      </Screen>
    );
  }
  return (
    <Screen title="Run the seeder" hints={[['↑/↓', 'field'], ['enter', 'next / seed']]} backLabel="cancel">
      <Text dimColor>Passwords are only used to create a missing account; existing accounts keep theirs.</Text>
      <Text dimColor>Blank: don't create that account if it is missing (the seeder then stops with an error).</Text>
      <Box marginTop={1}>
        <Form
          fields={SEED_ACCOUNTS.map((account) => ({ name: account.username, label: `${account.username} password`, kind: 'password' as const, validate: seedPassword }))}
          busy={seeding.busy}
          busyLabel="Seeding…"
          failure={seeding.failure}
          onSubmit={(values) => seeding.run(() => runSeeder(client, values), setReport)}
        />
      </Box>
    </Screen>
  );
}
