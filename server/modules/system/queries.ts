import type { Knex } from 'knex';
import type { VisitBuckets } from './visits.ts';

/** The visit counters' set-based SQL: the upsert-increment of a visit's two buckets (reads go through `VisitCounter`). */

/**
 * Both increments as one statement: the day bucket's `insert … on conflict do update` in a data-modifying WITH,
 * the week bucket's as the main statement. One statement is one transaction (both or neither), and one round
 * trip: the bucket rows stay locked only while it runs, not across round trips, which is what bounds the rate of
 * increments on one hot row. The plan is the same for every visit, so the rows are locked in one order.
 */
export const VISIT_UPSERT = `with day as (
    insert into visit_counters (bucket_type, bucket_key, visit_count) values ('DAY', $1, 1)
    on conflict (bucket_type, bucket_key) do update set visit_count = visit_counters.visit_count + 1, updated_at = now()
    returning 1
  )
  insert into visit_counters (bucket_type, bucket_key, visit_count) select 'WEEK', $2, 1 from day
  on conflict (bucket_type, bucket_key) do update set visit_count = visit_counters.visit_count + 1, updated_at = now()`;

const DEADLOCK = '40P01';

export async function countVisit(knex: Knex, buckets: VisitBuckets): Promise<void> {
  const sql = VISIT_UPSERT.replace('$1', '?').replace('$2', '?');
  for (let attempt = 1; ; attempt++) {
    try {
      await knex.raw(sql, [buckets.day, buckets.week]);
      return;
    } catch (err) {
      // Should PostgreSQL ever pick this statement as a deadlock victim, it was rolled back whole: run it again.
      if ((err as { code?: string }).code !== DEADLOCK || attempt >= 5) throw err;
    }
  }
}


/**
 * The readiness probe's round trip to the database, within `timeoutMs`: while PostgreSQL is away a connection is
 * retried until knex's acquire time-out, and readiness must say so at once rather than hang (an orchestrator's probe
 * has a time-out of its own, and a hung probe is no answer).
 */
export async function pingDatabase(knex: Knex, timeoutMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  // One promise (a knex builder runs its query again on every `then`).
  const ping = knex.raw('select 1').then(() => undefined);
  try {
    await Promise.race([
      ping,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    // The ping still waiting (for a connection) ends on its own: its failure is not this probe's.
    ping.catch(() => undefined);
  }
}
