import type { VenueClient } from '../sdk/index.ts';
import { describe, SeedError } from './errors.ts';

/** The seeded dashboard accounts (spec §2.2) and their role in the canonical organization. */
export const SEED_ACCOUNTS = [
  { username: 'admin', name: 'Venue admin', memberRole: 'admin' },
  { username: 'marketing', name: 'Marketing', memberRole: 'admin' },
  { username: 'staff', name: 'Venue staff', memberRole: 'member' },
] as const;

export type SeedUsername = (typeof SEED_ACCOUNTS)[number]['username'];
export type SeedPasswords = Partial<Record<SeedUsername, string>>;

export interface SeedReport {
  username: string;
  account: 'created' | 'existing';
  membership: 'created' | 'updated' | 'unchanged';
}

/**
 * Seeds through the HTTP API with a superuser token, never by writing tables (spec §5.3.3–4): attaches each
 * account to the canonical organization with ensure-organization-member, creating the account first when it is
 * missing. Idempotent: existing accounts (and their passwords) are left as they are.
 *
 * It looks before it writes, so a normal run sends no request that fails: an account is created when the
 * account list shows none with its username, then attached. Only when an account of that username exists at
 * some domain (the seeder does not know the server's EMAIL_DOMAIN) does it try to attach first and create on 404.
 */
export async function seedAccounts(
  client: VenueClient,
  options: {
    passwords: SeedPasswords;
    /** Called as soon as an account has been created with `passwords[username]` (to record that password). */
    onCreated?: (username: SeedUsername) => void;
  },
): Promise<SeedReport[]> {
  // The username is resolved by the server to exactly `<username>@<EMAIL_DOMAIN>`, so an account of the same
  // name at another domain is never mistaken for the seeded one.
  const attach = (seedAccount: (typeof SEED_ACCOUNTS)[number]) =>
    client.POST('/api/sudo/ensure-organization-member', { body: { email: seedAccount.username, role: seedAccount.memberRole } });

  /** Whether some account is `<username>@…` (at any domain); true when the list is too long to tell. */
  async function mayExist(username: string): Promise<boolean> {
    const listed = await client.GET('/api/sudo/users', { params: { query: { q: `${username}@`, limit: 100 } } });
    if (!listed.data) throw new SeedError(`listing accounts failed: ${describe(listed.response.status, listed.error)}`);
    if (listed.data.total > listed.data.items.length) return true;
    return listed.data.items.some((account) => account.email.toLowerCase().startsWith(`${username}@`));
  }

  async function createAccount(seedAccount: (typeof SEED_ACCOUNTS)[number], password: string | undefined) {
    if (!password) throw new SeedError(`SEED_${seedAccount.username.toUpperCase()}_PASSWORD is required to create the ${seedAccount.username} account`);
    const created = await client.POST('/api/sudo/users', { body: { username: seedAccount.username, name: seedAccount.name, password } });
    if (created.response.status === 201) {
      options.onCreated?.(seedAccount.username);
      return 'created' as const;
    }
    if (created.response.status === 409) return 'existing' as const;
    throw new SeedError(`creating ${seedAccount.username} failed: ${describe(created.response.status, created.error)}`);
  }

  const report: SeedReport[] = [];
  for (const seedAccount of SEED_ACCOUNTS) {
    let account: SeedReport['account'] = 'existing';
    let member;
    if (await mayExist(seedAccount.username)) {
      member = await attach(seedAccount);
      if (member.response.status === 404) {
        // Only namesakes at other domains: create it, then attach it.
        account = await createAccount(seedAccount, options.passwords[seedAccount.username]);
        member = await attach(seedAccount);
      }
    } else {
      account = await createAccount(seedAccount, options.passwords[seedAccount.username]);
      member = await attach(seedAccount);
    }
    if (!member.data) throw new SeedError(`attaching ${seedAccount.username} failed: ${describe(member.response.status, member.error)}`);
    report.push({ username: seedAccount.username, account, membership: member.data.outcome });
  }
  return report;
}
