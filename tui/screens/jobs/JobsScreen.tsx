import { Box, Text } from 'ink';
import { formatTimestamp } from '../../api/dates.ts';
import { getJobStats } from '../../api/jobs.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { StaticTable, type Column } from '../../ui/Table.tsx';
import { useConnection, useKeys, counted } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';

const FAILURES = 5;
const QUEUE_COLUMNS: readonly Column[] = [
  { header: 'QUEUE', min: 10 },
  ...(['QUEUED', 'RETRY', 'ACTIVE', 'DONE', 'FAILED', 'CANCELLED'] as const).map((header) => ({ header, width: 9, align: 'right' as const })),
];
const FAILURE_COLUMNS: readonly Column[] = [
  { header: 'FAILED AT', width: 16 },
  { header: 'QUEUE', width: 14 },
  { header: 'TRIES', width: 5, align: 'right' },
  { header: 'ERROR', min: 10 },
];

/** The job engine: each queue's jobs by state, and the latest failures (errors cut to the line); `r` refreshes. */
export function JobsScreen() {
  const { client } = useConnection();
  const stats = useLoad(() => getJobStats(client, FAILURES), []);
  useKeys((input) => {
    if (input === 'r') stats.reload();
  });
  const data = stats.data;
  return (
    <Screen title="Jobs" hints={[['r', 'refresh']]}>
      {data && (
        <Box flexDirection="column">
          <StaticTable
            columns={QUEUE_COLUMNS}
            rows={data.queues.map((queue) => [
              queue.name,
              ...[queue.counts.created, queue.counts.retry, queue.counts.active, queue.counts.completed, queue.counts.failed, queue.counts.cancelled].map(String),
            ])}
          />
          {data.queues.length === 0 && <Text dimColor>No queues.</Text>}
          <Box marginTop={1} flexDirection="column">
            <Text bold>Last failures</Text>
            {data.failures.length === 0 ? (
              <Text dimColor>None.</Text>
            ) : (
              <StaticTable
                columns={FAILURE_COLUMNS}
                rows={data.failures.map((failure) => [formatTimestamp(failure.failedAt).slice(0, 16), failure.queue, String(failure.attempts), failure.error ?? '—'])}
              />
            )}
          </Box>
        </Box>
      )}
      <Box marginTop={1}>{stats.loading ? <Busy label="Loading jobs…" /> : data && <Text dimColor>{counted(data.queues.length, 'queue')}</Text>}</Box>
      {stats.failure && <ProblemView failure={stats.failure} />}
    </Screen>
  );
}
