import { unwrap, type Schemas, type VenueClient } from '../../sdk/index.ts';
import { parseExpiry } from './dates.ts';
import { InputError } from './failure.ts';

export type Account = Schemas['Account'];
export type AccountDetail = Schemas['AccountDetail'];
export type AccountRole = Schemas['AccountRole'];
export const ACCOUNT_ROLES: readonly AccountRole[] = ['USER', 'SUPERUSER'];

export interface AccountPage {
  accounts: Account[];
  total: number;
  /** 1-based. */
  page: number;
  pageCount: number;
}

export async function listAccounts(client: VenueClient, options: { search: string; page: number; pageSize: number }): Promise<AccountPage> {
  const q = options.search.trim() || undefined;
  const offset = (options.page - 1) * options.pageSize;
  const result = unwrap(await client.GET('/api/sudo/users', { params: { query: { q, limit: options.pageSize, offset } } }));
  return {
    accounts: result.items,
    total: result.total,
    page: options.page,
    pageCount: Math.max(1, Math.ceil(result.total / options.pageSize)),
  };
}

export async function getAccount(client: VenueClient, accountId: string): Promise<AccountDetail> {
  return unwrap(await client.GET('/api/sudo/users/{userId}', { params: { path: { userId: accountId } } }));
}

/**
 * Every account, read page by page, for choosing an API key's owner: the SUPERUSER accounts (the only ones that
 * can own a key, spec §2.2) first, then the others by e-mail.
 */
export async function listKeyOwnerCandidates(client: VenueClient): Promise<Account[]> {
  const accounts: Account[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = unwrap(await client.GET('/api/sudo/users', { params: { query: { limit: 100, offset } } }));
    accounts.push(...page.items);
    if (offset + page.items.length >= page.total || page.items.length === 0) break;
  }
  const rank = (account: Account) => (account.role === 'SUPERUSER' ? 0 : 1);
  return accounts.sort((a, b) => rank(a) - rank(b) || a.email.localeCompare(b.email));
}

/**
 * Gives an account the SUPERUSER account role, which lets it own API keys. The account role grants nothing at
 * sign-in (a session's role comes from its organization membership, spec §2.2 and §5.1).
 */
export async function grantSuperuserRole(client: VenueClient, accountId: string): Promise<Account> {
  return unwrap(await client.PATCH('/api/sudo/users/{userId}', { params: { path: { userId: accountId } }, body: { role: 'SUPERUSER' } }));
}

export interface NewAccount {
  /** An e-mail, or a username (no `@`) that the server turns into `<username>@<EMAIL_DOMAIN>`. */
  login: string;
  name: string;
  password: string;
  role: AccountRole;
}

export async function createAccount(client: VenueClient, input: NewAccount): Promise<Account> {
  const login = input.login.trim();
  const identity = login.includes('@') ? { email: login } : { username: login };
  return unwrap(await client.POST('/api/sudo/users', { body: { ...identity, name: input.name, password: input.password, role: input.role } }));
}

export interface AccountChanges {
  name: string;
  email: string;
  /** Blank keeps the current password. */
  password: string;
  role: AccountRole;
}

/** Sends only what differs from `account`; returns null when nothing does. */
export async function updateAccount(client: VenueClient, account: Account, changes: AccountChanges): Promise<Account | null> {
  const body: { name?: string; email?: string; password?: string; role?: AccountRole } = {};
  if (changes.name !== account.name) body.name = changes.name;
  if (changes.email.trim() !== account.email) body.email = changes.email.trim();
  if (changes.password) body.password = changes.password;
  if (changes.role !== account.role) body.role = changes.role;
  if (Object.keys(body).length === 0) return null;
  return unwrap(await client.PATCH('/api/sudo/users/{userId}', { params: { path: { userId: account.id } }, body }));
}

/** Bans (revoking the account's sessions and removing its passkeys); a blank reason or expiry is none. */
export async function banAccount(client: VenueClient, accountId: string, input: { reason: string; expires: string }): Promise<Account> {
  const banExpiresAt = parseExpiry(input.expires, 'body/banExpiresAt');
  const banReason = input.reason.trim() || null;
  return unwrap(await client.PATCH('/api/sudo/users/{userId}', { params: { path: { userId: accountId } }, body: { banned: true, banReason, banExpiresAt } }));
}

export async function unbanAccount(client: VenueClient, accountId: string): Promise<Account> {
  return unwrap(await client.PATCH('/api/sudo/users/{userId}', { params: { path: { userId: accountId } }, body: { banned: false } }));
}

/** Sends nothing unless `typedEmail` is the account's e-mail: deleting takes its sessions, memberships and keys too. */
export async function deleteAccount(client: VenueClient, account: Pick<Account, 'id' | 'email'>, typedEmail: string): Promise<void> {
  if (typedEmail.trim() !== account.email) {
    throw new InputError('Not confirmed', `Nothing was deleted: type ${account.email} exactly to delete this account.`, [
      { path: 'confirm', message: 'does not match the e-mail' },
    ]);
  }
  unwrap(await client.DELETE('/api/sudo/users/{userId}', { params: { path: { userId: account.id } } }));
}
