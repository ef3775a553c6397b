import { Box, Text } from 'ink';
import { runMigrations } from '../../api/maintenance.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection, useKeys } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';

/** Opening this screen runs the pending migrations (choosing it in the menu is the request); Enter runs them again. */
export function Migrations() {
  const { client } = useConnection();
  const result = useLoad(() => runMigrations(client), []);
  useKeys((_input, key) => {
    if (key.return && !result.loading) result.reload();
  });
  return (
    <Screen title="Run migrations" hints={[['enter', 'run again']]}>
      {result.loading && <Busy label="Running migrations…" />}
      {!result.loading && result.failure && <ProblemView failure={result.failure} />}
      {!result.loading && !result.failure && result.data && (
        <Box flexDirection="column">
          {result.data.applied.length === 0 ? (
            <Text color="green">✔ Already up to date: nothing applied.</Text>
          ) : (
            <>
              <Text color="green">✔ Applied {result.data.applied.length}:</Text>
              {result.data.applied.map((name) => (
                <Text key={name}>  {name}</Text>
              ))}
            </>
          )}
          <Box marginTop={1} flexDirection="column">
            <Text bold>Current ({result.data.current.length}):</Text>
            {result.data.current.map((name) => (
              <Text key={name}>  {name}</Text>
            ))}
          </Box>
        </Box>
      )}
    </Screen>
  );
}
