import { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import TextInput from 'ink-text-input';
import { listAccounts, type Account } from '../../api/accounts.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { TableList, type Column } from '../../ui/Table.tsx';
import { useConnection, useKeys, useNavigation, useOnReturn, useShell, useTyping } from '../../ui/shell.ts';
import { useLoad } from '../../ui/useRequest.ts';
import { AccountCreate } from './AccountCreate.tsx';
import { AccountDetail } from './AccountDetail.tsx';
import { accountState } from './accountState.ts';

const SEARCH_DELAY_MS = 250;
const COLUMNS: readonly Column[] = [{ header: 'E-MAIL', grow: 3 }, { header: 'NAME', grow: 2 }, { header: 'ROLE', width: 9 }, { header: 'STATE', grow: 2 }];

/**
 * Accounts, newest first: `/` searches e-mail and name on the server (Enter then opens the first match, ↓ goes to
 * the list), ←/→ or PgUp/PgDn turn pages, `r` refreshes.
 */
export function AccountList() {
  const { client } = useConnection();
  const navigation = useNavigation();
  const { pageSize } = useShell();
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [searching, setSearching] = useState(false);
  const [page, setPage] = useState(1);
  /** Enter in the search field: open the first account of that search's answer once it is in. */
  const [openFirst, setOpenFirst] = useState<string | null>(null);
  useTyping(searching);

  // The server is asked once typing pauses, not on every key.
  useEffect(() => {
    if (search === query) return;
    const timer = setTimeout(() => {
      setQuery(search);
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, query]);

  const accounts = useLoad(() => listAccounts(client, { search: query, page, pageSize }).then((result) => ({ ...result, query })), [query, page, pageSize]);
  useOnReturn(accounts.reload);
  const pageCount = accounts.data?.pageCount ?? 1;
  useEffect(() => {
    // Deleting the last account of the last page leaves that page empty: show the one before.
    if (accounts.data && accounts.data.page > accounts.data.pageCount) setPage(accounts.data.pageCount);
  }, [accounts.data]);

  useEffect(() => {
    if (openFirst === null || accounts.loading || !accounts.data || accounts.data.query !== openFirst) return;
    setOpenFirst(null);
    const [first] = accounts.data.accounts;
    if (first) navigation.push(<AccountDetail accountId={first.id} />);
  }, [openFirst, accounts.loading, accounts.data, navigation]);

  useKeys((input, key) => {
    if (searching) {
      if (key.return || key.downArrow) {
        setSearching(false);
        setQuery(search);
        setPage(1);
        if (key.return && search.trim()) setOpenFirst(search);
      }
      return;
    }
    if (input === '/') setSearching(true);
    else if (input === 'r') accounts.reload();
    else if (key.leftArrow || key.pageUp) setPage((current) => Math.max(1, current - 1));
    else if (key.rightArrow || key.pageDown) setPage((current) => Math.min(pageCount, current + 1));
  });

  const hints = searching
    ? ([['type', 'filter by e-mail or name'], ['enter', 'open the first match'], ['↓', 'to the list']] as const)
    : ([['↑/↓', 'move'], ['enter', 'open'], ['/', 'search'], ['←/→', 'page'], ['r', 'refresh']] as const);
  return (
    <Screen title="Accounts" hints={hints} onBack={searching ? () => setSearching(false) : undefined} backLabel={searching ? 'leave search' : 'back'}>
      <Box>
        <Text bold={searching}>Search: </Text>
        {searching ? (
          <TextInput value={search} onChange={setSearch} placeholder="e-mail or name" />
        ) : (
          <Text dimColor={!search}>{search || 'press / to search'}</Text>
        )}
      </Box>
      <Box marginTop={1} flexDirection="column">
        <TableList<Account | 'create'>
          columns={COLUMNS}
          before={[{ key: 'create', value: 'create', label: <Text color="green">+ Create account</Text> }]}
          rows={(accounts.data?.accounts ?? []).map((account) => ({
            key: account.id,
            value: account,
            cells: [account.email, account.name, account.role, accountState(account)],
          }))}
          enabled={!searching}
          limit={pageSize + 1}
          onSelect={(choice) => navigation.push(choice === 'create' ? <AccountCreate /> : <AccountDetail accountId={choice.id} />)}
        />
        {accounts.data && accounts.data.total === 0 && <Text dimColor>  {query ? `No account matches "${query}".` : 'No accounts yet.'}</Text>}
      </Box>
      <Box marginTop={1}>
        {accounts.loading ? (
          <Busy label="Loading accounts…" />
        ) : (
          accounts.data && (
            <Text>
              page {accounts.data.page} of {accounts.data.pageCount}, total {accounts.data.total}
              {query && <Text dimColor> (matching "{query}")</Text>}
            </Text>
          )
        )}
      </Box>
      {accounts.failure && <ProblemView failure={accounts.failure} />}
    </Screen>
  );
}
