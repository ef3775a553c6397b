import { unwrap, type VenueClient } from '../../sdk/index.ts';
import { seed, SeedError, type SeedPasswords, type SeedReport } from '../../seed/index.ts';
import { InputError } from './failure.ts';

export const RESET_CONFIRMATION = 'RESET DATABASE';

export async function runMigrations(client: VenueClient): Promise<{ applied: string[]; current: string[] }> {
  return unwrap(await client.POST('/api/sudo/run-migrations'));
}

/** Blank passwords are left out: the seeder then refuses to create that account if it is missing. */
export async function runSeeder(client: VenueClient, passwords: SeedPasswords): Promise<SeedReport[]> {
  const given = Object.fromEntries(Object.entries(passwords).filter(([, password]) => password)) as SeedPasswords;
  try {
    return await seed({ client, passwords: given });
  } catch (error) {
    // The seeder words this for its environment variables; here the password is a field of the form.
    const missing = error instanceof SeedError && /^SEED_(\w+)_PASSWORD is required/.exec(error.message);
    if (!missing) throw error;
    const username = missing[1].toLowerCase();
    throw new InputError('Password needed', `The ${username} account does not exist yet: give its password to create it. The accounts before it were seeded; running again is safe.`, [
      { path: username, message: 'required to create this account' },
    ]);
  }
}

/** Sends nothing unless `typed` is exactly the confirmation phrase; the server may still refuse (403 in production). */
export async function resetDatabase(client: VenueClient, typed: string): Promise<{ rolledBack: string[]; applied: string[] }> {
  if (typed !== RESET_CONFIRMATION) {
    throw new InputError('Not confirmed', `Nothing was sent: type ${RESET_CONFIRMATION} exactly (capitals and the space) to reset.`, [
      { path: 'confirm', message: `type ${RESET_CONFIRMATION}` },
    ]);
  }
  return unwrap(await client.POST('/api/sudo/reset-database', { body: { confirm: RESET_CONFIRMATION } }));
}
