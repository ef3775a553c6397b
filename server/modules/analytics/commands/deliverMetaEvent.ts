import type { AppContext } from '../../../platform/context.ts';
import { metaCapiOptions, sendMetaEvents } from '../../../platform/integrations/metaCapi.ts';
import type { JobContext } from '../../../platform/jobs/types.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { MetaCapiEvent, MetaCapiOutboxEntry } from '../models.ts';

export type MetaSendOutcome = 'sent' | 'refused' | 'gone' | 'retrying' | 'failed';

/**
 * One attempt of the `meta.send-event` job (idempotent: a missing outbox row means the event is already done): the
 * send, then its audit row and (unless it is retried) the outbox row's deletion in one unit of work.
 */
export async function deliverMetaEvent(app: AppContext, outboxId: string, job: Pick<JobContext, 'attempt' | 'retryLimit'>, fetchImpl?: typeof fetch): Promise<MetaSendOutcome> {
  const knex = app.db.knex;
  const row = await MetaCapiOutboxEntry.query(knex).findById(outboxId);
  if (!row) return 'gone';
  const startedAt = new Date();
  const result = await sendMetaEvents(metaCapiOptions(app.config), [row.payload], fetchImpl);
  const finishedAt = new Date();
  const finalAttempt = job.attempt > job.retryLimit;
  const status = result.ok ? 'SENT' : result.retryable && !finalAttempt ? 'RETRYING' : 'FAILED';
  await inUnitOfWork({ knex, logger: app.logger }, async ({ trx }) => {
    await MetaCapiEvent.query(trx).insert({
      eventName: row.eventName,
      eventId: row.eventId,
      source: row.source,
      status,
      httpStatus: result.httpStatus,
      fbtraceId: result.fbtraceId,
      eventsReceived: result.ok ? result.eventsReceived : null,
      errorMessage: result.ok ? null : result.errorMessage,
      attempt: job.attempt,
      startedAt,
      finishedAt,
    });
    if (status !== 'RETRYING') await MetaCapiOutboxEntry.query(trx).deleteById(row.id);
  });
  if (result.ok) return 'sent';
  if (status === 'RETRYING') throw new Error(`Meta Conversions API: ${result.errorMessage} (attempt ${job.attempt}; it will be retried)`);
  if (!result.retryable) return 'refused';
  // Out of attempts: the outbox row is gone; failing the job records it among the engine's failures too.
  throw new Error(`Meta Conversions API: ${result.errorMessage} (attempt ${job.attempt}, the last)`);
}
