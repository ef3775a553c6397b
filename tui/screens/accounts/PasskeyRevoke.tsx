import { Text } from 'ink';
import type { AccountDetail } from '../../api/accounts.ts';
import { formatTimestamp } from '../../api/dates.ts';
import { revokePasskey, type Passkey } from '../../api/passkeys.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useConnection, useNavigation } from '../../ui/shell.ts';
import { useAction } from '../../ui/useRequest.ts';

/** "No" is first, so a stray Enter keeps the passkey. */
export function PasskeyRevoke({ account, passkey }: { account: Pick<AccountDetail, 'id' | 'email'>; passkey: Passkey }) {
  const { client } = useConnection();
  const navigation = useNavigation();
  const revoke = useAction();
  return (
    <Screen title={`Revoke passkey ${passkey.label}?`} hints={[['↑/↓', 'move'], ['enter', 'select']]}>
      <Text>
        {account.email} can no longer sign in with <Text bold>{passkey.label}</Text> (last used {formatTimestamp(passkey.lastUsedAt, 'never')}). Sessions it
        opened stay open: ban the account or give it a new password to end them (either removes all its passkeys).
      </Text>
      <SelectList
        enabled={!revoke.busy}
        choices={[
          { key: 'keep', value: false, label: 'No, keep it' },
          { key: 'revoke', value: true, label: `Yes, revoke ${passkey.label}` },
        ]}
        onSelect={(confirmed) => {
          if (!confirmed) return navigation.back();
          revoke.run(
            () => revokePasskey(client, account.id, passkey.id),
            () => {
              navigation.back();
              navigation.notify(`Revoked passkey ${passkey.label}`);
            },
          );
        }}
      />
      {revoke.busy && <Busy label="Revoking…" />}
      {revoke.failure && <ProblemView failure={revoke.failure} />}
    </Screen>
  );
}
