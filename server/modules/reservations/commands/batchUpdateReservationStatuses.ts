import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import { Problem, Unprocessable } from '../../../platform/http/problem.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from '../../booking/index.ts';
import { AfterCommit } from '../../../platform/unitOfWork.ts';
import { cancelReservation, confirmReservation, markNoShow, type TransitionActor, type TransitionContext } from '../../booking/index.ts';
import { effectiveStatus, type ReservationStatus } from '../../booking/index.ts';
import { applyFilters, type ReservationFilters } from '../service.ts';

export const BATCH_TARGETS = ['CONFIRMED', 'CANCELLED', 'NO_SHOW'] as const;
export type BatchTarget = (typeof BATCH_TARGETS)[number];

/** At most this many reservations per batch (ids or filter matches). */
export const MAX_BATCH = 500;

export interface BatchInput {
  ids?: string[];
  filter?: Pick<ReservationFilters, 'eventId' | 'status' | 'date'>;
  targetStatus: BatchTarget;
  reason?: string;
  dryRun: boolean;
}

export interface BatchItem {
  id: string;
  reference: string | null;
  from: ReservationStatus | null;
  to: BatchTarget;
  ok: boolean;
  changed: boolean;
  code: string | null;
}

export interface BatchReport {
  dryRun: boolean;
  targetStatus: BatchTarget;
  total: number;
  changed: number;
  failed: number;
  items: BatchItem[];
}

/** Thrown to roll a dry run back once its report is made. */
class DryRunRollback extends Error {
  constructor(readonly report: BatchReport) {
    super('dry run');
  }
}

/** One move through the state machine; whether it changed the reservation. */
async function move(ctx: TransitionContext, id: string, input: BatchInput): Promise<boolean> {
  if (input.targetStatus === 'CONFIRMED') return (await confirmReservation(ctx, id, { by: 'STAFF' })).changed;
  if (input.targetStatus === 'NO_SHOW') return (await markNoShow(ctx, id)).changed;
  const { changed } = await cancelReservation(ctx, id, { by: 'STAFF', reason: input.reason ?? null });
  if (changed) ctx.afterCommit(() => captureBusinessEvent(ctx.app, BUSINESS_EVENTS.reservationCancelled, id, { cancelled_by: 'STAFF' }));
  return changed;
}

async function selection(trx: Knex.Transaction, input: BatchInput, zone: string, now: Date): Promise<string[]> {
  if (input.ids) return input.ids;
  const query = trx('reservations as r').join('show_events as e', 'e.id', 'r.show_event_id').join('customers as c', 'c.id', 'r.customer_id');
  const rows = await applyFilters(query, input.filter!, zone, now)
    .orderBy([{ column: 'e.starts_at' }, { column: 'r.created_at' }, { column: 'r.id' }])
    .limit(MAX_BATCH + 1)
    .select('r.id');
  if (rows.length > MAX_BATCH) {
    throw Unprocessable('too_many_reservations', `The filter matches more than ${MAX_BATCH} reservations; narrow it.`, [
      { path: 'body/filter', message: `matches more than ${MAX_BATCH} reservations`, code: 'too_many_reservations' },
    ]);
  }
  return rows.map((row: { id: string }) => row.id);
}

/**
 * The superuser's bulk status change (spec §4.5), in one transaction: the events of the chosen reservations are
 * locked first, in id order (the booking lock order: event, then reservation), then each reservation moves
 * through the state machine in its own savepoint, so an illegal move (a 409 of lifecycle.ts) is reported and
 * leaves that reservation exactly as it was while the others go on; any other failure rolls everything back.
 * After-commit work (business events) of a reservation is kept only when its savepoint held. A dry run makes
 * the same moves and rolls the whole transaction back: the report is what a real run would do now.
 */
export async function batchUpdateStatuses(app: AppContext, actor: TransitionActor, input: BatchInput, now = new Date()): Promise<BatchReport> {
  if ((input.ids === undefined) === (input.filter === undefined)) {
    throw Unprocessable('selection_required', 'Send either `ids` or `filter`.', [{ path: 'body', message: 'must have exactly one of ids and filter', code: 'selection_required' }]);
  }
  const after = new AfterCommit();
  let report: BatchReport;
  try {
    report = await app.db.knex.transaction(async (trx) => {
      const ids = await selection(trx, input, app.config.venueTimezone, now);
      const rows = ids.length ? await trx('reservations').whereIn('id', ids).select('id', 'reference', 'show_event_id') : [];
      const byId = new Map<string, { reference: string; show_event_id: string }>(rows.map((row: { id: string; reference: string; show_event_id: string }) => [row.id, row]));
      const eventIds = [...new Set(rows.map((row: { show_event_id: string }) => row.show_event_id))].sort();
      if (eventIds.length) await trx('show_events').whereIn('id', eventIds).orderBy('id').forUpdate().select('id');

      const items: BatchItem[] = [];
      for (const id of ids) {
        const known = byId.get(id);
        if (!known) {
          items.push({ id, reference: null, from: null, to: input.targetStatus, ok: false, changed: false, code: 'not_found' });
          continue;
        }
        const current = await trx('reservations').where({ id }).first('status', 'hold_expires_at');
        const from = effectiveStatus(current, now);
        const own = new AfterCommit();
        try {
          const changed = await trx.transaction((savepoint) => move({ trx: savepoint, app, actor, now, afterCommit: own.add }, id, input));
          after.add(() => own.run(app.logger));
          items.push({ id, reference: known.reference, from, to: input.targetStatus, ok: true, changed, code: null });
        } catch (err) {
          if (!(err instanceof Problem) || err.status !== 409) throw err;
          items.push({ id, reference: known.reference, from, to: input.targetStatus, ok: false, changed: false, code: err.code });
        }
      }
      const made: BatchReport = {
        dryRun: input.dryRun,
        targetStatus: input.targetStatus,
        total: items.length,
        changed: items.filter((item) => item.changed).length,
        failed: items.filter((item) => !item.ok).length,
        items,
      };
      if (input.dryRun) throw new DryRunRollback(made);
      return made;
    });
  } catch (err) {
    if (err instanceof DryRunRollback) return err.report;
    throw err;
  }
  await after.run(app.logger);
  return report;
}
