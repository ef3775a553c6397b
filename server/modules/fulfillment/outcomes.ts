/** What an upsert did to one row (the seeder's report: created, updated, unchanged). */
export type UpsertOutcome = 'created' | 'updated' | 'unchanged';

/** `{ created, updated, unchanged }` of a list of outcomes. */
export function countOutcomes(results: ReadonlyArray<{ outcome: UpsertOutcome }>) {
  const counts = { created: 0, updated: 0, unchanged: 0 };
  for (const { outcome } of results) counts[outcome] += 1;
  return counts;
}
