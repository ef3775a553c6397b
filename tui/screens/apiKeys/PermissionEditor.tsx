import { listGrantablePermissions } from '../../api/apiKeys.ts';
import { Busy } from '../../ui/Busy.tsx';
import { Checklist } from '../../ui/Checklist.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { useConnection } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';

/** The permissions the server offers (the contract's `x-permission` values), each with the operations it opens. */
export function PermissionEditor({ initial, onDone, otherLines }: { initial: readonly string[]; onDone(permissions: string[]): void; otherLines: number }) {
  const { client } = useConnection();
  const grantable = useLoad(() => listGrantablePermissions(client), []);
  if (grantable.loading) return <Busy label="Loading permissions…" />;
  if (grantable.failure) return <ProblemView failure={grantable.failure} />;
  return (
    <Checklist
      items={(grantable.data ?? []).map(({ permission, operations }) => ({ value: permission, label: permission, description: operations.join(', ') }))}
      initial={initial}
      onSubmit={onDone}
      otherLines={otherLines}
    />
  );
}
