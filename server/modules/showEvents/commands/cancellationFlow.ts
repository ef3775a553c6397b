import type { AppContext } from '../../../platform/context.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Show } from '../../shows/index.ts';
import { ShowEvent } from '../models.ts';
import { lockShowEvent } from '../queries.ts';

export interface CancelEventInput {
  id: string;
  /** Null for an archive (DELETE), which gives none. */
  reason: string | null;
  actor: StaffActor;
}

/** What one subscriber of `showEvent.cancelled` did, as counts (or short notes) the reply reports under its name. */
export type CancellationSummary = Record<string, number | string | boolean | null>;

/**
 * The cancellation flow (DOMAIN.md "Catalog"), for both archive and cancel: one transaction, the event row
 * locked; the event becomes `CANCELLED` with its time and reason and sales closed, then `showEvent.cancelled` is
 * published in the same transaction: each subscriber (the module records: reservations, waiting list) does its
 * part, idempotently, and answers a summary. Nothing is deleted. An event already cancelled keeps its
 * time and reason (re-running changes nothing); a completed one cannot be cancelled (409 `event_completed`).
 */
export async function cancelEvent(app: AppContext, input: CancelEventInput, now = new Date()) {
  return inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx, afterCommit }) => {
      const locked = await lockShowEvent(trx, input.id);
      if (locked.status === 'COMPLETED') throw Conflict('event_completed', 'A completed event cannot be cancelled.');
      const alreadyCancelled = locked.status === 'CANCELLED';
      const event = alreadyCancelled
        ? locked
        : await ShowEvent.query(trx).patchAndFetchById(input.id, { status: 'CANCELLED', cancelledAt: now, cancellationReason: input.reason, salesOpen: false });
      const results = await publish({ trx, app, actor: input.actor, now, afterCommit }, 'showEvent.cancelled', {
        event,
        reason: event.cancellationReason,
        actor: input.actor,
        alreadyCancelled,
      });
      const hooks = results.map(({ name, result }) => ({ name, summary: (result ?? {}) as CancellationSummary }));
      const show = await Show.query(trx).findById(event.showId);
      return { event, show: show!, alreadyCancelled, hooks };
    },
    now,
  );
}
