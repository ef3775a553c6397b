import { useState } from 'react';
import { Box, Text } from 'ink';
import { SEED_ACCOUNTS, SEED_STEPS, type SeedProgress, type SeedResource, type SeedResult, type SeedStepReport } from '../../../seed/index.ts';
import { runSeeder } from '../../api/maintenance.ts';
import { Busy } from '../../ui/Busy.tsx';
import { Form } from '../../ui/Form.tsx';
import { Row } from '../../ui/Row.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { StaticTable, type Column } from '../../ui/Table.tsx';
import { useConnection } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

const seedPassword = (value: string) => (value && value.length < 8 ? 'at least 8 characters (or blank)' : undefined);

const SUMMARY_COLUMNS: readonly Column[] = [
  { header: 'RESOURCE', width: 20 },
  { header: 'CREATED', width: 9, align: 'right' },
  { header: 'UPDATED', width: 9, align: 'right' },
  { header: 'UNCHANGED', width: 9, align: 'right' },
];

const countCells = (report: SeedStepReport) =>
  report.skipped ? ['–', '–', '–'] : [String(report.created), String(report.updated), String(report.unchanged)];

const countsText = (report: SeedStepReport) =>
  report.skipped ? `skipped (${report.skipped})` : `${report.created} created, ${report.updated} updated, ${report.unchanged} unchanged`;

/** One line a step: pending, a spinner while it runs, then its counts. */
function Progress({ steps }: { steps: Partial<Record<SeedResource, SeedProgress>> }) {
  return (
    <Box flexDirection="column">
      {SEED_STEPS.map((resource) => {
        const progress = steps[resource];
        if (!progress) return <Text key={resource} dimColor>{`· ${resource}`}</Text>;
        if (progress.state === 'running') return <Busy key={resource} label={resource} />;
        return (
          <Text key={resource}>
            <Text color="green">✔</Text> {resource}: {countsText(progress.report)}
          </Text>
        );
      })}
    </Box>
  );
}

/** The report: a summary table per step, the events' dates, then each account. Fits 80×24. */
function Report({ result }: { result: SeedResult }) {
  const events = result.steps.find((step) => step.resource === 'events');
  return (
    <Screen title="Seeder report" hints={[]}>
      <StaticTable columns={SUMMARY_COLUMNS} rows={result.steps.map((step) => [step.resource, ...countCells(step)])} />
      {events?.note && <Text dimColor>Events: {events.note}</Text>}
      <Text color={result.changed ? 'green' : undefined}>
        {result.changed ? '✔ Seeded: the counts above say what was created or set back.' : '✔ Nothing changed: everything was already seeded.'}
      </Text>
      <Box marginTop={1} flexDirection="column">
        <Row header cells={[['ACCOUNT', 14], ['ACCOUNT STATE', 16], ['MEMBERSHIP', 12]]} />
        {result.accounts.map((line) => (
          <Row key={line.username} cells={[[line.username, 14], [line.account, 16], [line.membership, 12]]} />
        ))}
      </Box>
    </Screen>
  );
}

/**
 * The seeder through the API: the dashboard accounts (created if missing, attached to the canonical organization),
 * then the demo venue (items, shows, offers, tables, commercial setup, eight weeks of events), step by step.
 */
export function Seeder() {
  const { client } = useConnection();
  const seeding = useAction();
  const [steps, setSteps] = useState<Partial<Record<SeedResource, SeedProgress>>>({});
  const [result, setResult] = useState<SeedResult>();
  if (result) return <Report result={result} />;
  const started = Object.keys(steps).length > 0;
  return (
    <Screen title="Run the seeder" hints={[['↑/↓', 'field'], ['enter', 'next / seed']]} backLabel="cancel">
      <Text dimColor>Accounts, then the demo venue. Passwords only create a missing account.</Text>
      <Text dimColor>Blank: don't create that account if it is missing (the seeder then stops with an error).</Text>
      {started && (
        <Box marginTop={1}>
          <Progress steps={steps} />
        </Box>
      )}
      <Box marginTop={1}>
        <Form
          fields={SEED_ACCOUNTS.map((account) => ({ name: account.username, label: `${account.username} password`, kind: 'password' as const, validate: seedPassword }))}
          busy={seeding.busy}
          busyLabel="Seeding…"
          failure={seeding.failure}
          onSubmit={(values) => {
            setSteps({});
            seeding.run(
              () => runSeeder(client, values, (progress) => setSteps((previous) => ({ ...previous, [progress.resource]: progress }))),
              setResult,
            );
          }}
        />
      </Box>
    </Screen>
  );
}
