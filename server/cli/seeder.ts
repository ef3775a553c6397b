import type { MemberRole } from '../auth/roles.ts';

/** The seeded dashboard accounts (spec §2.2) and their role in the canonical organization. */
export const SEED_ACCOUNTS = [
  { username: 'admin', name: 'Venue admin', memberRole: 'admin' },
  { username: 'marketing', name: 'Marketing', memberRole: 'admin' },
  { username: 'staff', name: 'Venue staff', memberRole: 'member' },
] as const satisfies ReadonlyArray<{ username: string; name: string; memberRole: MemberRole }>;

export type SeedUsername = (typeof SEED_ACCOUNTS)[number]['username'];
export type SeedPasswords = Partial<Record<SeedUsername, string>>;

export interface SeedReport {
  username: string;
  account: 'created' | 'existing';
  membership: 'created' | 'updated' | 'unchanged';
}

export class SeedError extends Error {}

/**
 * Seeds through the HTTP API with a superuser token, never by writing tables (spec §5.3.3–4): attaches each
 * account to the canonical organization with ensure-organization-member, creating the account first when it is
 * missing. Idempotent: existing accounts (and their passwords) are left as they are.
 */
export async function seed(options: { baseUrl: string; superuserToken: string; passwords: SeedPasswords }): Promise<SeedReport[]> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(options.baseUrl + path, {
      method,
      headers: { 'x-api-token': options.superuserToken, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const payload = response.status === 204 ? undefined : await response.json();
    return { status: response.status, payload: payload as any };
  };
  // The username is resolved by the server to exactly `<username>@<EMAIL_DOMAIN>`, so an account of the same
  // name at another domain is never mistaken for the seeded one.
  const attach = (seedAccount: (typeof SEED_ACCOUNTS)[number]) =>
    call('POST', '/api/sudo/ensure-organization-member', { email: seedAccount.username, role: seedAccount.memberRole });

  async function createAccount(seedAccount: (typeof SEED_ACCOUNTS)[number], password: string | undefined) {
    if (!password) throw new SeedError(`SEED_${seedAccount.username.toUpperCase()}_PASSWORD is required to create the ${seedAccount.username} account`);
    const created = await call('POST', '/api/sudo/users', { username: seedAccount.username, name: seedAccount.name, password });
    if (created.status === 201 || created.status === 409) return created.status === 201 ? ('created' as const) : ('existing' as const);
    throw new SeedError(`creating ${seedAccount.username} failed: ${created.status} ${JSON.stringify(created.payload)}`);
  }

  const report: SeedReport[] = [];
  for (const seedAccount of SEED_ACCOUNTS) {
    let account: SeedReport['account'] = 'existing';
    let member = await attach(seedAccount);
    if (member.status === 404) {
      // No such account yet: create it, then attach it.
      account = await createAccount(seedAccount, options.passwords[seedAccount.username]);
      member = await attach(seedAccount);
    }
    if (member.status !== 200) {
      throw new SeedError(`attaching ${seedAccount.username} failed: ${member.status} ${JSON.stringify(member.payload)}`);
    }
    report.push({ username: seedAccount.username, account, membership: member.payload.outcome });
  }
  return report;
}
