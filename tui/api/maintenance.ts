import { unwrap, type Schemas, type VenueClient } from '../../sdk/index.ts';
import { seed, SeedError, type SeedPasswords, type SeedProgress, type SeedResult } from '../../seed/index.ts';
import { InputError } from './failure.ts';

export const RESET_CONFIRMATION = 'RESET DATABASE';

export async function runMigrations(client: VenueClient): Promise<{ applied: string[]; current: string[] }> {
  return unwrap(await client.POST('/api/sudo/run-migrations'));
}

/**
 * The whole seeder (accounts, then the demo venue), `onProgress` told as each step starts and ends. Blank passwords
 * are left out: the seeder then refuses to create that account if it is missing.
 */
export async function runSeeder(client: VenueClient, passwords: SeedPasswords, onProgress?: (progress: SeedProgress) => void): Promise<SeedResult> {
  const given = Object.fromEntries(Object.entries(passwords).filter(([, password]) => password)) as SeedPasswords;
  try {
    return await seed({ client, passwords: given, onProgress });
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

export type SlugBackfill = Schemas['EventSlugBackfillReport'];

/** `dryRun: true` previews the slugs a backfill would set (nothing written); `false` sets them. */
export async function backfillEventSlugs(client: VenueClient, dryRun: boolean): Promise<SlugBackfill> {
  return unwrap(await client.POST('/api/sudo/backfill-event-slugs', { body: { dryRun } }));
}
