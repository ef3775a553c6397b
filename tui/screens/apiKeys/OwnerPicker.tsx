import { useState } from 'react';
import { Box, Text } from 'ink';
import { grantSuperuserRole, listKeyOwnerCandidates, type Account } from '../../api/accounts.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { SCREEN_CHROME_LINES } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { TableList, useTerminalSize, type Column } from '../../ui/Table.tsx';
import { useConnection } from '../../ui/shell.ts';
import { useAction, useLoad } from '../../ui/useRequest.ts';

const COLUMNS: readonly Column[] = [
  { header: 'E-MAIL', grow: 3 },
  { header: 'NAME', grow: 2 },
  { header: 'ACCOUNT ROLE', width: 12 },
];

/** What the owner step says, above the list (its lines count in `OwnerPicker`'s height). */
export const OWNER_RULE = 'A key is owned by an account with the SUPERUSER account role (spec §2.2).';

/**
 * Every account, the SUPERUSER ones (eligible owners) first. Choosing another account offers to give it the
 * SUPERUSER account role (No first): on a fresh install the seeded accounts are USER accounts, and this is how
 * the first key gets an owner without leaving the app.
 */
export function OwnerPicker({ onPick, otherLines }: { onPick(owner: Account, granted: boolean): void; otherLines: number }) {
  const { client } = useConnection();
  const { rows } = useTerminalSize();
  const accounts = useLoad(() => listKeyOwnerCandidates(client), []);
  const [promoting, setPromoting] = useState<Account>();
  const grant = useAction();
  if (accounts.loading) return <Busy label="Loading accounts…" />;
  if (accounts.failure) return <ProblemView failure={accounts.failure} />;
  if (!accounts.data?.length) {
    return <Text color="yellow">No accounts yet: create one under Accounts (or run the seeder), then come back.</Text>;
  }
  if (promoting) {
    return (
      <Box flexDirection="column">
        <Text wrap="truncate-end">
          <Text bold>{promoting.email}</Text> has the {promoting.role} account role.
        </Text>
        <Text>Give it the SUPERUSER account role, so it can own this key?</Text>
        <Text dimColor>The account role grants no dashboard access (that comes from memberships): it only lets the account own API keys.</Text>
        <SelectList
          enabled={!grant.busy}
          choices={[
            { key: 'no', value: false, label: 'No, choose another account' },
            { key: 'yes', value: true, label: `Yes, give ${promoting.email} the SUPERUSER role` },
          ]}
          onSelect={(confirmed) => {
            if (!confirmed) return setPromoting(undefined);
            grant.run(
              () => grantSuperuserRole(client, promoting.id),
              (updated) => onPick(updated, true),
            );
          }}
        />
        {grant.busy && <Busy label="Giving the SUPERUSER role…" />}
        {grant.failure && <ProblemView failure={grant.failure} />}
      </Box>
    );
  }
  const eligible = accounts.data.filter((account) => account.role === 'SUPERUSER').length;
  // The table's header, the "more" lines of the list, and the line under it.
  const limit = Math.max(3, rows - SCREEN_CHROME_LINES - otherLines - 4);
  return (
    <Box flexDirection="column">
      <TableList<Account>
        columns={COLUMNS}
        limit={limit}
        rows={accounts.data.map((account) => ({ key: account.id, value: account, cells: [account.email, account.name, account.role] }))}
        onSelect={(account) => (account.role === 'SUPERUSER' ? onPick(account, false) : setPromoting(account))}
      />
      <Text dimColor wrap="truncate-end">
        {eligible === 0 ? 'No SUPERUSER account yet: choose one to give it the role.' : `${eligible} of ${accounts.data.length} can own keys; choosing another offers to give it the role.`}
      </Text>
    </Box>
  );
}
