import type { AppContext } from '../../../context.ts';
import { Conflict } from '../../../http/problem.ts';
import { Show } from '../../shows/models.ts';
import { cancellationHooks, type CancellationActor, type CancellationSummary } from '../cancellationHooks.ts';
import { ShowEvent } from '../models.ts';
import { lockShowEvent } from '../service.ts';

export interface CancelEventInput {
  id: string;
  /** Null for an archive (DELETE), which gives none. */
  reason: string | null;
  actor: CancellationActor;
}

/**
 * The cancellation flow (DOMAIN.md "Catalog"), for both archive and cancel: one transaction, the event row
 * locked; the event becomes `CANCELLED` with its time and reason and sales closed, then every registered part
 * (cancellationHooks.ts) runs in the same transaction. Nothing is deleted. An event already cancelled keeps its
 * time and reason (re-running changes nothing); a completed one cannot be cancelled (409 `event_completed`).
 */
export async function cancelEvent(app: AppContext, input: CancelEventInput, now = new Date()) {
  const pending: Array<() => void | Promise<void>> = [];
  const result = await app.db.knex.transaction(async (trx) => {
    const locked = await lockShowEvent(trx, input.id);
    if (locked.status === 'COMPLETED') throw Conflict('event_completed', 'A completed event cannot be cancelled.');
    const alreadyCancelled = locked.status === 'CANCELLED';
    const event = alreadyCancelled
      ? locked
      : await ShowEvent.query(trx).patchAndFetchById(input.id, { status: 'CANCELLED', cancelledAt: now, cancellationReason: input.reason, salesOpen: false });
    const hooks: Array<{ name: string; summary: CancellationSummary }> = [];
    for (const [name, hook] of cancellationHooks()) {
      const summary = await hook({ trx, event, reason: event.cancellationReason, actor: input.actor, alreadyCancelled, app, afterCommit: (task) => pending.push(task) });
      hooks.push({ name, summary });
    }
    const show = await Show.query(trx).findById(event.showId);
    return { event, show: show!, alreadyCancelled, hooks };
  });
  for (const task of pending) {
    try {
      await task();
    } catch (err) {
      app.logger.error({ err, eventId: input.id }, 'show event cancellation: an after-commit task failed');
    }
  }
  return result;
}
