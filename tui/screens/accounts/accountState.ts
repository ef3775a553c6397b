import { formatDay } from '../../api/dates.ts';
import type { Account } from '../../api/accounts.ts';

/** `active`, `banned`, or `banned until 2030-01-01`. */
export function accountState(account: Account): string {
  if (!account.banned) return 'active';
  return account.banExpiresAt ? `banned until ${formatDay(account.banExpiresAt)}` : 'banned';
}
