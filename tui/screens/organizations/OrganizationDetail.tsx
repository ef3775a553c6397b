import { useState } from 'react';
import { Box, Text } from 'ink';
import { listMemberships } from '../../api/memberships.ts';
import { listOrganizations, type Organization } from '../../api/organizations.ts';
import { Busy } from '../../ui/Busy.tsx';
import { Field } from '../../ui/Field.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useConnection, useNavigation, useOnReturn } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';
import { OrganizationDelete } from './OrganizationDelete.tsx';
import { OrganizationForm } from './OrganizationForm.tsx';
import { OrganizationMembers } from './OrganizationMembers.tsx';

type OrganizationAction = 'members' | 'rename' | 'delete';

/** One organization: its members, rename, and delete (not the canonical one). */
export function OrganizationDetail(props: { organization: Organization }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const [organization, setOrganization] = useState(props.organization);
  const members = useLoad(() => listMemberships(client, { organizationId: organization.id }), [organization.id]);
  useOnReturn(() => {
    members.reload();
    // A rename on the screen above: show the new name and slug.
    listOrganizations(client).then(
      (all) => {
        const current = all.find((candidate) => candidate.id === organization.id);
        if (current) setOrganization(current);
      },
      () => undefined,
    );
  });

  function act(action: OrganizationAction) {
    if (action === 'members') navigation.push(<OrganizationMembers organization={organization} />);
    else if (action === 'rename') navigation.push(<OrganizationForm organization={organization} />);
    else navigation.push(<OrganizationDelete organization={organization} memberCount={members.data?.length} />);
  }

  const actions: { key: OrganizationAction; value: OrganizationAction; label: string }[] = [
    { key: 'members', value: 'members', label: `Members (${members.data ? members.data.length : '…'})` },
    { key: 'rename', value: 'rename', label: 'Rename' },
  ];
  if (!organization.canonical) actions.push({ key: 'delete', value: 'delete', label: 'Delete…' });
  return (
    <Screen title={`Organization ${organization.name}`} hints={[['↑/↓', 'move'], ['enter', 'select']]}>
      <Field label="Name">{organization.name}</Field>
      <Field label="Slug">{organization.slug}</Field>
      <Field label="Canonical">{organization.canonical ? 'yes (it cannot be deleted)' : 'no'}</Field>
      <Field label="Members">{members.data ? String(members.data.length) : members.loading ? '…' : '?'}</Field>
      <Box marginTop={1} flexDirection="column">
        <SelectList<OrganizationAction> choices={actions} onSelect={act} />
      </Box>
      {members.loading && !members.data && <Busy label="Loading members…" />}
      {members.failure && <ProblemView failure={members.failure} />}
    </Screen>
  );
}
