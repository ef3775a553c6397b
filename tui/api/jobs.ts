import { unwrap, type Schemas, type VenueClient } from '../../sdk/index.ts';

export type JobStats = Schemas['JobStats'];
export type JobQueue = Schemas['JobQueue'];
export type JobFailure = Schemas['JobFailure'];

/** Queues with their counts by state, and the latest `failures` failed jobs, newest first. */
export async function getJobStats(client: VenueClient, failures = 5): Promise<JobStats> {
  return unwrap(await client.GET('/api/sudo/jobs', { params: { query: { failures } } }));
}
