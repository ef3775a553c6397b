import { Box, Text } from 'ink';
import { getAccount, unbanAccount, type AccountDetail as Detail } from '../../api/accounts.ts';
import { formatTimestamp } from '../../api/dates.ts';
import { Busy } from '../../ui/Busy.tsx';
import { Field } from '../../ui/Field.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useConnection, useNavigation, useOnReturn } from '../../ui/shell.ts';
import { useAction, useLoad } from '../../ui/useRequest.ts';
import { AttachMember } from '../memberships/AttachMember.tsx';
import { AccountBan } from './AccountBan.tsx';
import { AccountDelete } from './AccountDelete.tsx';
import { AccountEdit } from './AccountEdit.tsx';
import { AccountPasskeys } from './AccountPasskeys.tsx';
import { accountState } from './accountState.ts';

type AccountAction = 'edit' | 'ban' | 'unban' | 'attach' | 'passkeys' | 'delete';

/** One account with its memberships, and what can be done to it. */
export function AccountDetail({ accountId }: { accountId: string }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const account = useLoad(() => getAccount(client, accountId), [accountId]);
  useOnReturn(account.reload);
  const unban = useAction();

  function act(action: AccountAction, detail: Detail) {
    if (action === 'edit') navigation.push(<AccountEdit account={detail} />);
    else if (action === 'ban') navigation.push(<AccountBan account={detail} />);
    else if (action === 'attach') navigation.push(<AttachMember account={detail.email} />);
    else if (action === 'passkeys') navigation.push(<AccountPasskeys account={detail} />);
    else if (action === 'delete') navigation.push(<AccountDelete account={detail} />);
    else
      unban.run(
        () => unbanAccount(client, detail.id),
        (updated) => {
          navigation.notify(`Unbanned ${updated.email}`);
          account.reload();
        },
      );
  }

  const detail = account.data;
  const title = detail ? `Account ${detail.email}` : 'Account';
  return (
    <Screen title={title} hints={[['↑/↓', 'move'], ['enter', 'select']]}>
      {!detail && account.loading && <Busy label="Loading the account…" />}
      {account.failure && <ProblemView failure={account.failure} />}
      {detail && (
        <>
          <Field label="E-mail">{detail.email}</Field>
          <Field label="Name">{detail.name}</Field>
          <Field label="Role">{detail.role}</Field>
          <Field label="State">
            <Text color={detail.banned ? 'red' : 'green'}>{accountState(detail)}</Text>
          </Field>
          {detail.banned && <Field label="Ban reason">{detail.banReason ?? '—'}</Field>}
          {detail.banned && <Field label="Ban expires">{formatTimestamp(detail.banExpiresAt, 'never')}</Field>}
          <Field label="Memberships">
            {detail.memberships.length ? detail.memberships.map((member) => `${member.organization.name} (${member.role})`).join(', ') : 'none'}
          </Field>
          <Field label="Created">{formatTimestamp(detail.createdAt)}</Field>
          <Box marginTop={1} flexDirection="column">
            <SelectList<AccountAction>
              enabled={!unban.busy}
              choices={[
                { key: 'edit', value: 'edit', label: 'Edit name, e-mail, password or role' },
                detail.banned ? { key: 'unban', value: 'unban', label: 'Unban' } : { key: 'ban', value: 'ban', label: 'Ban' },
                { key: 'attach', value: 'attach', label: 'Attach to an organization' },
                { key: 'passkeys', value: 'passkeys', label: 'Passkeys (view, revoke)…' },
                { key: 'delete', value: 'delete', label: 'Delete…' },
              ]}
              onSelect={(action) => act(action, detail)}
            />
          </Box>
          {unban.busy && <Busy label="Unbanning…" />}
          {account.loading && !unban.busy && <Busy label="Refreshing…" />}
          {unban.failure && <ProblemView failure={unban.failure} />}
        </>
      )}
    </Screen>
  );
}
