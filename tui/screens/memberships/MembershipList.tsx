import { Box, Text } from 'ink';
import { formatDay } from '../../api/dates.ts';
import { listMemberships } from '../../api/memberships.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Row } from '../../ui/Row.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useConnection, useNavigation, useOnReturn } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';
import { AccountDetail } from '../accounts/AccountDetail.tsx';

const COLUMNS = [22, 32, 20, 11, 10] as const;

/** Every membership with its organization's name; Enter opens the member's account. */
export function MembershipList() {
  const { client } = useConnection();
  const navigation = useNavigation();
  const memberships = useLoad(() => listMemberships(client), []);
  useOnReturn(memberships.reload);
  return (
    <Screen title="Memberships" hints={[['↑/↓', 'move'], ['enter', 'open the account']]}>
      {memberships.loading && !memberships.data && <Busy label="Loading memberships…" />}
      {memberships.failure && <ProblemView failure={memberships.failure} />}
      {memberships.data && memberships.data.length === 0 && <Text dimColor>No memberships yet.</Text>}
      {memberships.data && memberships.data.length > 0 && (
        <Box flexDirection="column">
          <Box marginLeft={2}>
            <Row header cells={[['ORGANIZATION', COLUMNS[0]], ['E-MAIL', COLUMNS[1]], ['NAME', COLUMNS[2]], ['ROLE', COLUMNS[3]], ['SINCE', COLUMNS[4]]]} />
          </Box>
          <SelectList
            choices={memberships.data.map((member) => ({
              key: member.id,
              value: member.accountId,
              label: (
                <Row
                  cells={[
                    [member.organization.name, COLUMNS[0]],
                    [member.accountEmail, COLUMNS[1]],
                    [member.accountName, COLUMNS[2]],
                    [member.role, COLUMNS[3]],
                    [formatDay(member.createdAt), COLUMNS[4]],
                  ]}
                />
              ),
            }))}
            onSelect={(accountId) => navigation.push(<AccountDetail accountId={accountId} />)}
          />
          {memberships.loading ? <Busy label="Refreshing…" /> : <Text dimColor>{memberships.data.length} memberships</Text>}
        </Box>
      )}
    </Screen>
  );
}
