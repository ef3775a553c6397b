import { Box, Text } from 'ink';
import { listOrganizations, type Organization } from '../../api/organizations.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { TableList, type Column } from '../../ui/Table.tsx';
import { useConnection, useKeys, useNavigation, useOnReturn, counted } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';
import { OrganizationDetail } from './OrganizationDetail.tsx';
import { OrganizationForm } from './OrganizationForm.tsx';

const COLUMNS: readonly Column[] = [{ header: 'NAME', grow: 3 }, { header: 'SLUG', grow: 2 }, { header: 'CANONICAL', width: 9 }];

/** Organizations, the canonical one first: "+ Create organization", Enter opens one (members, rename, delete), `r` refreshes. */
export function OrganizationList() {
  const { client } = useConnection();
  const navigation = useNavigation();
  const organizations = useLoad(() => listOrganizations(client), []);
  useOnReturn(organizations.reload);
  useKeys((input) => {
    if (input === 'r') organizations.reload();
  });
  return (
    <Screen title="Organizations" hints={[['↑/↓', 'move'], ['enter', 'open'], ['r', 'refresh']]}>
      <TableList<Organization | 'create'>
        columns={COLUMNS}
        before={[{ key: 'create', value: 'create', label: <Text color="green">+ Create organization</Text> }]}
        rows={(organizations.data ?? []).map((organization) => ({
          key: organization.id,
          value: organization,
          cells: [organization.name, organization.slug, organization.canonical ? 'yes' : ''],
        }))}
        onSelect={(choice) => navigation.push(choice === 'create' ? <OrganizationForm /> : <OrganizationDetail organization={choice} />)}
      />
      <Box marginTop={1}>
        {organizations.loading ? <Busy label="Loading organizations…" /> : organizations.data && <Text dimColor>{counted(organizations.data.length, 'organization')}</Text>}
      </Box>
      {organizations.failure && <ProblemView failure={organizations.failure} />}
    </Screen>
  );
}
