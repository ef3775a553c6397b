import { Box, Text } from 'ink';
import { formatDay } from '../../api/dates.ts';
import { listMemberships, type MembershipWithAccount } from '../../api/memberships.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { TableList, type Column } from '../../ui/Table.tsx';
import { useConnection, useKeys, useNavigation, useOnReturn, counted } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';
import { AccountDetail } from '../accounts/AccountDetail.tsx';
import { MembershipRemove } from './MembershipRemove.tsx';

const COLUMNS: readonly Column[] = [
  { header: 'ORGANIZATION', grow: 2 },
  { header: 'E-MAIL', grow: 3 },
  { header: 'NAME', grow: 2 },
  { header: 'ROLE', width: 11 },
  { header: 'SINCE', width: 10 },
];

/** Every membership with its organization's name; Enter opens the member's account, `d` removes the membership. */
export function MembershipList() {
  const { client } = useConnection();
  const navigation = useNavigation();
  const memberships = useLoad(() => listMemberships(client), []);
  useOnReturn(memberships.reload);
  useKeys((input) => {
    if (input === 'r') memberships.reload();
  });
  return (
    <Screen title="Memberships" hints={[['↑/↓', 'move'], ['enter', 'open the account'], ['d', 'remove'], ['r', 'refresh']]}>
      {memberships.loading && !memberships.data && <Busy label="Loading memberships…" />}
      {memberships.failure && <ProblemView failure={memberships.failure} />}
      {memberships.data && memberships.data.length === 0 && <Text dimColor>No memberships yet.</Text>}
      {memberships.data && memberships.data.length > 0 && (
        <Box flexDirection="column">
          <TableList<MembershipWithAccount>
            columns={COLUMNS}
            rows={memberships.data.map((member) => ({
              key: member.id,
              value: member,
              cells: [member.organization.name, member.accountEmail, member.accountName, member.role, formatDay(member.createdAt)],
            }))}
            onSelect={(member) => navigation.push(<AccountDetail accountId={member.accountId} />)}
            onInput={(input, member) => {
              if (input === 'd') navigation.push(<MembershipRemove membership={member} />);
            }}
          />
          {memberships.loading ? <Busy label="Refreshing…" /> : <Text dimColor>{counted(memberships.data.length, 'membership')}</Text>}
        </Box>
      )}
    </Screen>
  );
}
