import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import { Problem, Unprocessable } from '../../../platform/http/problem.ts';
import { AfterCommit, inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { cancelReservation, confirmReservation, markNoShow, Reservation, statusAt, type ReservationStatus } from '../../booking/index.ts';
import type { TransitionActor, TransitionContext } from '../../../domain/unitOfWork.ts';
import { filteredIds, lockShowEvents, type ReservationFilters } from '../queries.ts';

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
  return (await cancelReservation(ctx, id, { by: 'STAFF', reason: input.reason ?? null })).changed;
}

async function selection(trx: Knex.Transaction, input: BatchInput, zone: string, now: Date): Promise<string[]> {
  if (input.ids) return input.ids;
  const ids = await filteredIds(trx, input.filter!, zone, now, MAX_BATCH + 1);
  if (ids.length > MAX_BATCH) {
    throw Unprocessable('too_many_reservations', `The filter matches more than ${MAX_BATCH} reservations; narrow it.`, [
      { path: 'body/filter', message: `matches more than ${MAX_BATCH} reservations`, code: 'too_many_reservations' },
    ]);
  }
  return ids;
}

/**
 * The superuser's bulk status change (spec §4.5), in one transaction: the events of the chosen reservations are
 * locked first, in id order (the booking lock order: event, then reservation), then each reservation moves
 * through the state machine in its own savepoint, so an illegal move (a 409 of lifecycle.ts) is reported and
 * leaves that reservation exactly as it was while the others go on; any other failure rolls everything back.
 * After-commit work (business events) of a reservation is kept only when its savepoint held. A dry run makes
 * the same moves and rolls the whole transaction back: the report is what a real run would do now.
 */
export async function batchUpdateReservationStatuses(app: AppContext, actor: TransitionActor, input: BatchInput, now = new Date()): Promise<BatchReport> {
  if ((input.ids === undefined) === (input.filter === undefined)) {
    throw Unprocessable('selection_required', 'Send either `ids` or `filter`.', [{ path: 'body', message: 'must have exactly one of ids and filter', code: 'selection_required' }]);
  }
  try {
    return await inUnitOfWork(
      { knex: app.db.knex, logger: app.logger },
      async ({ trx, afterCommit }) => {
        const ids = await selection(trx, input, app.config.venueTimezone, now);
        const rows = ids.length ? await Reservation.query(trx).whereIn('id', ids).select('id', 'reference', 'show_event_id') : [];
        const byId = new Map(rows.map((row) => [row.id, row]));
        const eventIds = [...new Set(rows.map((row) => row.showEventId))].sort();
        if (eventIds.length) await lockShowEvents(trx, eventIds);

        const items: BatchItem[] = [];
        for (const id of ids) {
          const known = byId.get(id);
          if (!known) {
            items.push({ id, reference: null, from: null, to: input.targetStatus, ok: false, changed: false, code: 'not_found' });
            continue;
          }
          const current = await Reservation.query(trx).findById(id).select('status', 'hold_expires_at');
          const from = statusAt(current!, now);
          const own = new AfterCommit();
          try {
            const changed = await trx.transaction((savepoint) => move({ trx: savepoint, app, actor, now, afterCommit: own.add }, id, input));
            afterCommit(() => own.run(app.logger));
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
      },
      now,
    );
  } catch (err) {
    // A dry run's transaction rolled back before its after-commit list could run: nothing of it is kept.
    if (err instanceof DryRunRollback) return err.report;
    throw err;
  }
}
