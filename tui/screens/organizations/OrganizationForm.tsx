import { Text } from 'ink';
import { createOrganization, renameOrganization, type Organization } from '../../api/organizations.ts';
import { Form } from '../../ui/Form.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Creates an organization, or renames `organization` (name and/or slug; the canonical one stays canonical). */
export function OrganizationForm({ organization }: { organization?: Organization }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const save = useAction();
  const creating = !organization;
  return (
    <Screen title={creating ? 'Create organization' : `Rename ${organization.name}`} hints={[['enter', 'next field / save']]} backLabel="cancel">
      <Text dimColor>
        Slug: lower-case letters and digits, words joined by single hyphens{creating ? ' (blank: made from the name)' : ''}.
        {organization?.canonical ? ' This is the canonical organization; it stays canonical.' : ''}
      </Text>
      <Form
        fields={[
          { name: 'name', label: 'Name', validate: (value) => (value.trim() ? undefined : 'required') },
          {
            name: 'slug',
            label: 'Slug',
            placeholder: creating ? 'blank = from the name' : undefined,
            validate: (value) => (!value.trim() ? (creating ? undefined : 'required') : SLUG.test(value.trim()) ? undefined : 'e.g. second-stage'),
          },
        ]}
        initialValues={organization ? { name: organization.name, slug: organization.slug } : undefined}
        busy={save.busy}
        failure={save.failure}
        onSubmit={(values) =>
          save.run(
            () => (organization ? renameOrganization(client, organization, { name: values.name, slug: values.slug }) : createOrganization(client, { name: values.name, slug: values.slug })),
            (saved) => {
              navigation.back();
              navigation.notify(creating ? `Created ${saved.name} (${saved.slug})` : `Renamed to ${saved.name} (${saved.slug})`);
            },
          )
        }
      />
    </Screen>
  );
}
