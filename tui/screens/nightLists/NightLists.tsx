import { Box, Text } from 'ink';
import { upcomingPerformances, type ShowEvent } from '../../api/nightLists.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useConnection, useKeys, useNavigation } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';
import { NightListDownload } from './NightListDownload.tsx';

/** The show's title in the first language it has (the venue's default locale comes first). */
const showTitle = (event: ShowEvent) => Object.values(event.show.title).find(Boolean) ?? event.show.code;

/** The scheduled performances from today on; Enter opens one to save its door or kitchen list; `r` refreshes. */
export function NightLists({ directory }: { directory: string }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const events = useLoad(() => upcomingPerformances(client), []);
  useKeys((input) => {
    if (input === 'r') events.reload();
  });
  const label = (event: ShowEvent) => `${event.localDate} ${event.localTime}  ${showTitle(event)}`;
  return (
    <Screen title="Night lists" hints={[['↑/↓', 'move'], ['enter', 'open'], ['r', 'refresh']]}>
      {events.data && events.data.length === 0 && <Text dimColor>No scheduled performances from today on.</Text>}
      {events.data && events.data.length > 0 && (
        <SelectList
          choices={events.data.map((event) => ({ key: event.id, value: event, label: label(event) }))}
          onSelect={(event) => navigation.push(<NightListDownload event={event} title={label(event)} directory={directory} />)}
        />
      )}
      <Box marginTop={1}>{events.loading ? <Busy label="Loading performances…" /> : <Text dimColor>Files are saved in {directory}</Text>}</Box>
      {events.failure && <ProblemView failure={events.failure} />}
    </Screen>
  );
}
