import { Text } from 'ink';
import { formatTimestamp } from '../../api/dates.ts';
import { listAccountPasskeys, type Passkey } from '../../api/passkeys.ts';
import type { AccountDetail } from '../../api/accounts.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { TableList, type Column } from '../../ui/Table.tsx';
import { useConnection, useNavigation, useOnReturn } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';
import { PasskeyRevoke } from './PasskeyRevoke.tsx';

const COLUMNS: readonly Column[] = [
  { header: 'Label', min: 10, grow: 1 },
  { header: 'Created', width: 20 },
  { header: 'Last used', width: 20 },
];

/** An account's passkeys (label, created, last used); Enter on one offers to revoke it. */
export function AccountPasskeys({ account }: { account: Pick<AccountDetail, 'id' | 'email'> }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const passkeys = useLoad(() => listAccountPasskeys(client, account.id), [account.id]);
  useOnReturn(passkeys.reload);
  const rows = (passkeys.data ?? []).map((passkey: Passkey) => ({
    key: passkey.id,
    value: passkey,
    cells: [passkey.label, formatTimestamp(passkey.createdAt), formatTimestamp(passkey.lastUsedAt, 'never')],
  }));
  return (
    <Screen title={`Passkeys of ${account.email}`} hints={[['↑/↓', 'move'], ['enter', 'revoke']]}>
      {!passkeys.data && passkeys.loading && <Busy label="Loading the passkeys…" />}
      {passkeys.failure && <ProblemView failure={passkeys.failure} />}
      {passkeys.data && (
        <TableList<Passkey>
          columns={COLUMNS}
          rows={rows}
          onSelect={(passkey) => navigation.push(<PasskeyRevoke account={account} passkey={passkey} />)}
          empty={<Text dimColor>No passkeys: this account signs in with its password only.</Text>}
        />
      )}
    </Screen>
  );
}
