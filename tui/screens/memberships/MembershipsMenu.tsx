import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useNavigation } from '../../ui/shell.ts';
import { AttachMember } from './AttachMember.tsx';
import { MembershipList } from './MembershipList.tsx';

export function MembershipsMenu() {
  const navigation = useNavigation();
  return (
    <Screen title="Memberships" hints={[['↑/↓', 'move'], ['enter', 'open']]}>
      <SelectList
        choices={[
          { key: 'attach', value: () => <AttachMember />, label: 'Attach an account to an organization' },
          { key: 'list', value: () => <MembershipList />, label: 'List memberships' },
        ]}
        onSelect={(screen) => navigation.push(screen())}
      />
    </Screen>
  );
}
