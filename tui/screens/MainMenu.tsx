import { Box, Text } from 'ink';
import { Screen } from '../ui/Screen.tsx';
import { SelectList } from '../ui/SelectList.tsx';
import { useNavigation, useShell } from '../ui/shell.ts';
import { AccountList } from './accounts/AccountList.tsx';
import { ApiKeyList } from './apiKeys/ApiKeyList.tsx';
import { MaintenanceMenu } from './maintenance/MaintenanceMenu.tsx';
import { JobsScreen } from './jobs/JobsScreen.tsx';
import { MembershipsMenu } from './memberships/MembershipsMenu.tsx';
import { NightLists } from './nightLists/NightLists.tsx';
import { OrganizationList } from './organizations/OrganizationList.tsx';

const SECTIONS = [
  { key: 'accounts', title: 'Accounts', about: 'search, create, edit, ban, delete', screen: () => <AccountList /> },
  { key: 'organizations', title: 'Organizations', about: 'list, create, rename, members, delete', screen: () => <OrganizationList /> },
  { key: 'memberships', title: 'Memberships', about: 'attach, list, remove', screen: () => <MembershipsMenu /> },
  { key: 'api-keys', title: 'API keys', about: 'create, rename, permissions, expiry, delete', screen: () => <ApiKeyList /> },
  { key: 'jobs', title: 'Jobs', about: 'queues, counts, last failures', screen: () => <JobsScreen /> },
  { key: 'night-lists', title: 'Night lists', about: 'a performance’s door and kitchen lists (PDF, XLSX)', screen: (directory: string) => <NightLists directory={directory} /> },
  { key: 'maintenance', title: 'Seed and maintenance', about: 'migrations, seeder, database reset', screen: () => <MaintenanceMenu /> },
];

export function MainMenu() {
  const navigation = useNavigation();
  const { downloadDir } = useShell();
  return (
    <Screen title="Main menu" hints={[['↑/↓', 'move'], ['enter', 'open']]} onBack={navigation.disconnect} backLabel="disconnect">
      <SelectList
        choices={SECTIONS.map((section) => ({
          key: section.key,
          value: section,
          label: (
            <Box>
              <Box width={22}>
                <Text>{section.title}</Text>
              </Box>
              <Text dimColor>{section.about}</Text>
            </Box>
          ),
        }))}
        onSelect={(section) => navigation.push(section.screen(downloadDir))}
      />
    </Screen>
  );
}
