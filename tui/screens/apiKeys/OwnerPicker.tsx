import { Text } from 'ink';
import { listSuperusers, type Account } from '../../api/accounts.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useConnection } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';

/** API keys belong to SUPERUSER accounts only: those are the choices. */
export function OwnerPicker({ onPick }: { onPick(owner: Account): void }) {
  const { client } = useConnection();
  const superusers = useLoad(() => listSuperusers(client), []);
  if (superusers.loading) return <Busy label="Loading SUPERUSER accounts…" />;
  if (superusers.failure) return <ProblemView failure={superusers.failure} />;
  if (!superusers.data?.length) {
    return <Text color="yellow">No SUPERUSER accounts yet: create one under Accounts (account role SUPERUSER) first.</Text>;
  }
  return (
    <SelectList
      choices={superusers.data.map((account) => ({ key: account.id, value: account, label: `${account.email}  (${account.name})` }))}
      onSelect={onPick}
    />
  );
}
