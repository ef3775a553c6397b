import { createClient, type VenueClient } from '../sdk/index.ts';
import { seedAccounts, type SeedPasswords, type SeedReport, type SeedUsername } from './accounts.ts';
import {
  CATALOG_STEPS,
  catalogHasShows,
  seedCommercialSetup,
  seedEvents,
  seedFulfillmentItems,
  seedOffers,
  seedShows,
  seedTables,
  type CatalogStep,
  type SeedCounts,
} from './catalog.ts';
import { seedKnowledge } from './knowledge.ts';

export { SEED_ACCOUNTS, type SeedPasswords, type SeedReport, type SeedUsername } from './accounts.ts';
export { CATALOG_STEPS, type CatalogStep, type SeedCounts } from './catalog.ts';
export { SeedError } from './errors.ts';
export { DEMO_KNOWLEDGE } from './knowledge.ts';
export * from './venue.ts';

/** Every step of a run, in order: the dashboard accounts, then the demo venue. */
export const SEED_STEPS = ['accounts', ...CATALOG_STEPS] as const;
export type SeedResource = (typeof SEED_STEPS)[number];

/** One step's outcome: what it created, set back to the demo values (`updated`) and found as seeded. */
export interface SeedStepReport extends SeedCounts {
  resource: SeedResource;
  /** Why the step did nothing (the boot-time seed over a catalog that already has shows). */
  skipped?: string;
  /** A detail worth printing (the events' date range). */
  note?: string;
}

export type SeedProgress = { resource: SeedResource; state: 'running' } | { resource: SeedResource; state: 'done'; report: SeedStepReport };

export interface SeedResult {
  /** Per account (the first step in detail). */
  accounts: SeedReport[];
  /** Per step, in `SEED_STEPS` order. */
  steps: SeedStepReport[];
  /** Whether anything was created or updated. */
  changed: boolean;
}

/**
 * - `always` (`npm run seed`, the terminal app): every demo resource created when missing and set back to the demo
 *   values where it differs;
 * - `when-empty` (`npm start`): only while the catalog has no show at all, so a restart never undoes operators' edits;
 * - `never`: accounts only.
 */
export type CatalogMode = 'always' | 'when-empty' | 'never';

export interface SeedOptions {
  passwords: SeedPasswords;
  /** Called as soon as an account has been created with `passwords[username]` (to record that password). */
  onCreated?: (username: SeedUsername) => void;
  /** Called when a step starts and when it ends (the terminal app's progress). */
  onProgress?: (progress: SeedProgress) => void;
  /** Default `always`. */
  catalog?: CatalogMode;
}

const accountCounts = (accounts: readonly SeedReport[]): SeedCounts => ({
  created: accounts.filter((row) => row.account === 'created').length,
  updated: accounts.filter((row) => row.account === 'existing' && row.membership !== 'unchanged').length,
  unchanged: accounts.filter((row) => row.account === 'existing' && row.membership === 'unchanged').length,
});

/**
 * Seeds through the HTTP API with a superuser token, never by writing tables (spec §5.3.3–4): the dashboard
 * accounts of the canonical organization (see seedAccounts), then the demo venue of seed/venue.ts — fulfillment
 * items, shows (published), offers, tables, the commercial setup, events for the next DEMO_WEEKS weeks, and the
 * assistant's knowledge (seed/knowledge.ts, published).
 *
 * Idempotent: it looks before it writes (lists, or the sudo upserts that compare before writing), so a second run
 * writes nothing, reports every step unchanged, and sends no request that fails. Where a demo resource differs from
 * seed/venue.ts (an operator's edit) it is set back and counted `updated`; what operators added (other shows, offers,
 * tables) is never touched, and an event that exists — cancelled or not — is never re-created or changed.
 */
export async function seed(options: ({ baseUrl: string; superuserToken: string } | { client: VenueClient }) & SeedOptions): Promise<SeedResult> {
  const client = 'client' in options ? options.client : createClient({ baseUrl: options.baseUrl, superuserToken: options.superuserToken });
  const steps: SeedStepReport[] = [];
  const step = async (resource: SeedResource, run: () => Promise<Omit<SeedStepReport, 'resource'>>) => {
    options.onProgress?.({ resource, state: 'running' });
    const report = { resource, ...(await run()) };
    steps.push(report);
    options.onProgress?.({ resource, state: 'done', report });
  };

  let accounts: SeedReport[] = [];
  await step('accounts', async () => {
    accounts = await seedAccounts(client, options);
    return accountCounts(accounts);
  });

  const mode = options.catalog ?? 'always';
  const skip =
    mode === 'never' ? 'not asked for' : mode === 'when-empty' && (await catalogHasShows(client)) ? 'the catalog already has shows' : undefined;
  if (skip) {
    for (const resource of CATALOG_STEPS) await step(resource, async () => ({ created: 0, updated: 0, unchanged: 0, skipped: skip }));
  } else {
    let scheduled: string[] = [];
    await step('fulfillment items', () => seedFulfillmentItems(client));
    await step('shows', async () => {
      const shows = await seedShows(client);
      scheduled = shows.scheduled;
      return shows.counts;
    });
    await step('offers', () => seedOffers(client));
    await step('tables', () => seedTables(client));
    await step('commercial setup', () => seedCommercialSetup(client));
    await step('events', async () => {
      const { from, to, timeZone, ...counts } = await seedEvents(client, scheduled);
      return { ...counts, note: `${from} to ${to} (${timeZone})` };
    });
    await step('knowledge', () => seedKnowledge(client));
  }
  return { accounts, steps, changed: steps.some((row) => row.created + row.updated > 0) };
}

/** The report as a table of plain text lines (the CLI, the start banner): one line a step, then the verdict. */
export function formatSeedResult(result: SeedResult): string {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  const lines = [`${'resource'.padEnd(18)}${pad('created', 9)}${pad('updated', 9)}${pad('unchanged', 11)}`];
  for (const row of result.steps) {
    const counts = row.skipped ? `  skipped: ${row.skipped}` : `${pad(row.created, 9)}${pad(row.updated, 9)}${pad(row.unchanged, 11)}`;
    lines.push(`${row.resource.padEnd(18)}${counts}${row.note ? `   ${row.note}` : ''}`);
  }
  lines.push(result.changed ? 'Seeded: see the counts above.' : 'Nothing changed: everything was already seeded.');
  return lines.join('\n');
}
