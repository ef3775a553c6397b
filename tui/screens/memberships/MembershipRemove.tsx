import { Text } from 'ink';
import { removeMembership, type MembershipWithAccount } from '../../api/memberships.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

/** "No" is first, so a stray Enter keeps the membership. */
export function MembershipRemove({ membership }: { membership: MembershipWithAccount }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const remove = useAction();
  const who = `${membership.accountEmail} from ${membership.organization.name}`;
  return (
    <Screen title="Remove membership?" hints={[['↑/↓', 'move'], ['enter', 'select']]}>
      <Text>
        Remove <Text bold>{membership.accountEmail}</Text> ({membership.role}) from <Text bold>{membership.organization.name}</Text>? Its sessions there lose
        their access at once.
      </Text>
      <SelectList
        enabled={!remove.busy}
        choices={[
          { key: 'keep', value: false, label: 'No, keep it' },
          { key: 'remove', value: true, label: 'Yes, remove it' },
        ]}
        onSelect={(confirmed) => {
          if (!confirmed) return navigation.back();
          remove.run(
            () => removeMembership(client, membership.id),
            () => {
              navigation.back();
              navigation.notify(`Removed ${who}`);
            },
          );
        }}
      />
      {remove.busy && <Busy label="Removing…" />}
      {remove.failure && <ProblemView failure={remove.failure} />}
    </Screen>
  );
}
