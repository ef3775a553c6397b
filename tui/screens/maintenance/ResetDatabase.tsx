import { useState } from 'react';
import { Box, Text } from 'ink';
import { RESET_CONFIRMATION, resetDatabase } from '../../api/maintenance.ts';
import { Form } from '../../ui/Form.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

/**
 * What `POST /api/sudo/reset-database` wipes: it rolls back every migration (dropping every table of the app) and
 * migrates again, so each table below comes back empty (the canonical organization is recreated by its migration).
 * Uploaded files stay in storage (their rows go) and pg-boss keeps its own schema (queued jobs stay).
 */
export const WIPED = [
  'accounts, sessions, organizations, memberships and API keys',
  'shows, show events, offers, tables and the commercial setup',
  'bookings (reservations), holds, check-ins, payments and refunds',
  'customers, leads, guest profiles, inquiries and the waiting list',
  'vouchers, promo codes, referral links, codes, partners and commissions',
  'e-mails sent, knowledge, chat transcripts, analytics and every other table',
] as const;

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
        <Text>Every table was emptied: accounts, bookings, payments, the catalogue and the rest.</Text>
        <Text>Run the seeder next.</Text>
      </Screen>
    );
  }
  const refusedByServer = reset.failure?.status !== undefined;
  return (
    <Screen title="Reset the database" hints={[['enter', 'reset']]} backLabel="cancel">
      <Text color="red" bold>
        This rolls back every migration and runs them again: every table is emptied.
      </Text>
      <Box flexDirection="column" marginY={1}>
        {WIPED.map((what) => (
          <Text key={what} wrap="truncate-end">
            {'  • '}
            {what}
          </Text>
        ))}
      </Box>
      <Text>Kept: superuser tokens (environment), uploaded files in storage, queued jobs.</Text>
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
