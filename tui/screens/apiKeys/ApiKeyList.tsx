import { Box, Text } from 'ink';
import { keyStart, listApiKeys, type ApiKey } from '../../api/apiKeys.ts';
import { formatDay } from '../../api/dates.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Row } from '../../ui/Row.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { SelectList, type Choice } from '../../ui/SelectList.tsx';
import { useConnection, useNavigation, useOnReturn } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';
import { ApiKeyCreate } from './ApiKeyCreate.tsx';
import { ApiKeyDetail } from './ApiKeyDetail.tsx';

const COLUMNS = [16, 14, 22, 7, 10, 10, 6] as const;

export function ApiKeyList() {
  const { client } = useConnection();
  const navigation = useNavigation();
  const keys = useLoad(() => listApiKeys(client), []);
  useOnReturn(keys.reload);

  const choices: Choice<ApiKey | 'create'>[] = [
    { key: 'create', value: 'create', label: <Text color="green">+ Create API key</Text> },
    ...(keys.data ?? []).map((apiKey) => ({
      key: apiKey.id,
      value: apiKey,
      label: (
        <Row
          cells={[
            [apiKey.name, COLUMNS[0]],
            [keyStart(apiKey), COLUMNS[1]],
            [apiKey.ownerEmail, COLUMNS[2]],
            [apiKey.enabled ? 'yes' : 'no', COLUMNS[3]],
            [formatDay(apiKey.expiresAt, 'never'), COLUMNS[4]],
            [formatDay(apiKey.lastUsedAt, 'never'), COLUMNS[5]],
            [String(apiKey.requestCount), COLUMNS[6]],
          ]}
        />
      ),
    })),
  ];
  return (
    <Screen title="API keys" hints={[['↑/↓', 'move'], ['enter', 'open']]}>
      <Box marginLeft={2}>
        <Row header cells={[['NAME', COLUMNS[0]], ['START', COLUMNS[1]], ['OWNER', COLUMNS[2]], ['ENABLED', COLUMNS[3]], ['EXPIRES', COLUMNS[4]], ['LAST USED', COLUMNS[5]], ['REQS', COLUMNS[6]]]} />
      </Box>
      <SelectList choices={choices} onSelect={(choice) => navigation.push(choice === 'create' ? <ApiKeyCreate /> : <ApiKeyDetail apiKey={choice} />)} />
      {keys.data && keys.data.length === 0 && <Text dimColor>  No API keys yet.</Text>}
      <Box marginTop={1}>{keys.loading ? <Busy label="Loading API keys…" /> : keys.data && <Text>total {keys.data.length}</Text>}</Box>
      {keys.failure && <ProblemView failure={keys.failure} />}
    </Screen>
  );
}
