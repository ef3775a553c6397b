import { Text } from 'ink';
import { deleteOrganization, type Organization } from '../../api/organizations.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { counted, useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

/**
 * "No" is first, so a stray Enter keeps the organization. The server deletes only an organization without members
 * (409 `organization_has_members` otherwise) and never the canonical one; its refusal is shown as it says.
 */
export function OrganizationDelete({ organization, memberCount }: { organization: Organization; memberCount?: number }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const remove = useAction();
  return (
    <Screen title={`Delete organization ${organization.name}?`} hints={[['↑/↓', 'move'], ['enter', 'select']]}>
      <Text wrap="truncate-end">
        <Text bold>{organization.name}</Text> ({organization.slug}) is deleted for good.
      </Text>
      {memberCount ? (
        <Text color="yellow">
          It has {counted(memberCount, 'member')}: the server deletes only an organization without members. Remove them first (Members, then d).
        </Text>
      ) : (
        <Text dimColor>It has no members. Sessions that had it active keep no active organization.</Text>
      )}
      <SelectList
        enabled={!remove.busy}
        choices={[
          { key: 'keep', value: false, label: 'No, keep it' },
          { key: 'delete', value: true, label: `Yes, delete ${organization.name}` },
        ]}
        onSelect={(confirmed) => {
          if (!confirmed) return navigation.back();
          remove.run(
            () => deleteOrganization(client, organization.id),
            () => {
              navigation.back(2);
              navigation.notify(`Deleted organization ${organization.name} (${organization.slug})`);
            },
          );
        }}
      />
      {remove.busy && <Busy label="Deleting…" />}
      {remove.failure && <ProblemView failure={remove.failure} />}
    </Screen>
  );
}
