import { useState } from 'react';
import { Box, Text } from 'ink';
import { saveNightList, type NightListFormat, type NightListKind, type ShowEvent } from '../../api/nightLists.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useConnection } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

const LISTS: ReadonlyArray<{ kind: NightListKind; format: NightListFormat; label: string }> = [
  { kind: 'door-list', format: 'pdf', label: 'Door list (PDF)' },
  { kind: 'door-list', format: 'xlsx', label: 'Door list (XLSX)' },
  { kind: 'kitchen-list', format: 'pdf', label: 'Kitchen list (PDF)' },
  { kind: 'kitchen-list', format: 'xlsx', label: 'Kitchen list (XLSX)' },
];

/** One performance: Enter on a list saves it into `directory` under the server's file name, and says where. */
export function NightListDownload({ event, title, directory }: { event: ShowEvent; title: string; directory: string }) {
  const { client } = useConnection();
  const action = useAction();
  const [saved, setSaved] = useState<{ file: string; bytes: number }>();
  return (
    <Screen title={title} hints={[['↑/↓', 'move'], ['enter', 'save']]}>
      <SelectList
        enabled={!action.busy}
        choices={LISTS.map((list) => ({ key: `${list.kind}-${list.format}`, value: list, label: list.label }))}
        onSelect={(list) => action.run(() => saveNightList(client, event.id, list.kind, list.format, directory), setSaved)}
      />
      <Box marginTop={1} flexDirection="column">
        {action.busy && <Busy label="Downloading…" />}
        {saved && !action.busy && (
          <Text color="green" wrap="truncate-end">
            Saved {saved.file} ({saved.bytes.toLocaleString('en-US')} bytes)
          </Text>
        )}
      </Box>
      {action.failure && <ProblemView failure={action.failure} />}
    </Screen>
  );
}
