import type { Knex } from 'knex';
import { expireLiveEntriesOf } from '../queries.ts';

/** An event cancelled (in the cancellation's transaction): its WAITING and NOTIFIED entries expire; answers how many. */
export async function expireEntriesOfCancelledEvent(trx: Knex.Transaction, showEventId: string, now: Date): Promise<number> {
  return expireLiveEntriesOf(trx, showEventId, now);
}
