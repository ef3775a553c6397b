import { Box, Text } from 'ink';
import { keyStart, listApiKeys, type ApiKey } from '../../api/apiKeys.ts';
import { formatDay } from '../../api/dates.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { TableList, type Column } from '../../ui/Table.tsx';
import { useConnection, useKeys, useNavigation, useOnReturn } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';
import { ApiKeyCreate } from './ApiKeyCreate.tsx';
import { ApiKeyDetail } from './ApiKeyDetail.tsx';

const COLUMNS: readonly Column[] = [
  { header: 'NAME', grow: 2 },
  { header: 'START', width: 12 },
  { header: 'OWNER', grow: 3 },
  { header: 'ON', width: 3 },
  { header: 'EXPIRES', width: 10 },
  { header: 'LAST USED', width: 10 },
  { header: 'REQS', width: 5, align: 'right' },
];

export function ApiKeyList() {
  const { client } = useConnection();
  const navigation = useNavigation();
  const keys = useLoad(() => listApiKeys(client), []);
  useOnReturn(keys.reload);

  useKeys((input) => {
    if (input === 'r') keys.reload();
  });
  return (
    <Screen title="API keys" hints={[['↑/↓', 'move'], ['enter', 'open'], ['r', 'refresh']]}>
      <TableList<ApiKey | 'create'>
        columns={COLUMNS}
        before={[{ key: 'create', value: 'create', label: <Text color="green">+ Create API key</Text> }]}
        rows={(keys.data ?? []).map((apiKey) => ({
          key: apiKey.id,
          value: apiKey,
          cells: [
            apiKey.name,
            keyStart(apiKey),
            apiKey.ownerEmail,
            apiKey.enabled ? 'yes' : 'no',
            formatDay(apiKey.expiresAt, 'never'),
            formatDay(apiKey.lastUsedAt, 'never'),
            String(apiKey.requestCount),
          ],
        }))}
        onSelect={(choice) => navigation.push(choice === 'create' ? <ApiKeyCreate /> : <ApiKeyDetail apiKey={choice} />)}
      />
      {keys.data && keys.data.length === 0 && <Text dimColor>  No API keys yet.</Text>}
      <Box marginTop={1}>{keys.loading ? <Busy label="Loading API keys…" /> : keys.data && <Text>total {keys.data.length}</Text>}</Box>
      {keys.failure && <ProblemView failure={keys.failure} />}
    </Screen>
  );
}
