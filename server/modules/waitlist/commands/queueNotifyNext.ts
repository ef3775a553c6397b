import type { Knex } from 'knex';
import type { JobEngine } from '../../../platform/jobs/types.ts';
import { WAITLIST_NOTIFY_NEXT_QUEUE } from '../queues.ts';

/** Schedules the notify job for these events (in the caller's transaction, so only if it commits). */
export async function queueNotifyNext(jobs: Pick<JobEngine, 'enqueue'>, trx: Knex.Transaction, eventIds: string[]): Promise<void> {
  for (const eventId of new Set(eventIds)) await jobs.enqueue(WAITLIST_NOTIFY_NEXT_QUEUE, { eventId }, { trx });
}
