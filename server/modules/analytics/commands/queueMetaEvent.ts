import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { META_SEND_QUEUE, metaEnabled, metaEvent, type MetaEventInput } from '../meta.ts';
import { MetaCapiOutboxEntry } from '../models.ts';

/**
 * Writes the event's outbox row and its job in `trx` (or a unit of work of its own): both exist only if it
 * commits. Returns false (and writes nothing) when the integration is off.
 */
export async function queueMetaEvent(app: AppContext, input: MetaEventInput, trx?: Knex.Transaction): Promise<boolean> {
  if (!metaEnabled(app)) return false;
  const write = async (t: Knex.Transaction) => {
    const row = await MetaCapiOutboxEntry.query(t).insert({ eventName: input.eventName, eventId: input.eventId, source: input.source, payload: metaEvent(input) });
    await app.jobs.enqueue(META_SEND_QUEUE, { outboxId: row.id }, { trx: t });
  };
  if (trx) await write(trx);
  else await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, ({ trx: t }) => write(t));
  return true;
}
