import { Box, Text } from 'ink';
import { formatDay } from '../../api/dates.ts';
import { listMemberships, type MembershipWithAccount } from '../../api/memberships.ts';
import type { Organization } from '../../api/organizations.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { SCREEN_CHROME_LINES, Screen } from '../../ui/Screen.tsx';
import { TableList, useTerminalSize, type Column } from '../../ui/Table.tsx';
import { counted, useConnection, useKeys, useNavigation, useOnReturn } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';
import { AccountDetail } from '../accounts/AccountDetail.tsx';
import { MembershipRemove } from '../memberships/MembershipRemove.tsx';

const COLUMNS: readonly Column[] = [
  { header: 'E-MAIL', grow: 3 },
  { header: 'NAME', grow: 2 },
  { header: 'ROLE', width: 11 },
  { header: 'SINCE', width: 10 },
];

/** One organization's members (oldest first): Enter opens the account, `d` removes the membership, `r` refreshes. */
export function OrganizationMembers({ organization }: { organization: Organization }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const { rows } = useTerminalSize();
  const members = useLoad(() => listMemberships(client, { organizationId: organization.id }), [organization.id]);
  useOnReturn(members.reload);
  useKeys((input) => {
    if (input === 'r') members.reload();
  });
  // The table's header, its "more" lines and the count under it.
  const limit = Math.max(3, rows - SCREEN_CHROME_LINES - 4);
  return (
    <Screen title={`Members of ${organization.name}`} hints={[['↑/↓', 'move'], ['enter', 'open the account'], ['d', 'remove'], ['r', 'refresh']]}>
      {members.loading && !members.data && <Busy label="Loading members…" />}
      {members.failure && <ProblemView failure={members.failure} />}
      {members.data && members.data.length === 0 && <Text dimColor>No members: attach accounts under Memberships.</Text>}
      {members.data && members.data.length > 0 && (
        <Box flexDirection="column">
          <TableList<MembershipWithAccount>
            columns={COLUMNS}
            limit={limit}
            rows={members.data.map((member) => ({
              key: member.id,
              value: member,
              cells: [member.accountEmail, member.accountName, member.role, formatDay(member.createdAt)],
            }))}
            onSelect={(member) => navigation.push(<AccountDetail accountId={member.accountId} />)}
            onInput={(input, member) => {
              if (input === 'd') navigation.push(<MembershipRemove membership={member} />);
            }}
          />
          {members.loading ? <Busy label="Refreshing…" /> : <Text dimColor>{counted(members.data.length, 'member')}</Text>}
        </Box>
      )}
    </Screen>
  );
}
