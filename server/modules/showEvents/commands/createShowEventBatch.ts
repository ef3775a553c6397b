import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { addDays, atLocal, datesOnWeekdays, eventSlug } from '../../../domain/venueTime.ts';
import { Conflict, Unprocessable, type FieldError } from '../../../platform/http/problem.ts';
import { Show } from '../../shows/index.ts';
import { insertEventsIgnoringTakenSlugs, takenSlugs } from '../queries.ts';

export interface EventBatchInput {
  showId?: string;
  showCode?: string;
  /** Local dates (VENUE_TIMEZONE), inclusive. */
  from: string;
  to: string;
  dates?: string[];
  /** ISO weekdays, 1 = Monday … 7 = Sunday. */
  weekdays?: number[];
  /** Local `HH:mm`. */
  times: string[];
  capacity: number;
  doorsMinutesBefore?: number;
  salesOpen?: boolean;
}

/** A schedule covers at most this many days… */
export const MAX_BATCH_DAYS = 366;
/** …and makes at most this many events in one call. */
export const MAX_BATCH_EVENTS = 1000;

/** The local days of a schedule, checked: a sane range, dates inside it, not too many events. */
function scheduleDays(input: EventBatchInput): string[] {
  if (input.from > input.to) {
    throw Unprocessable('invalid_date_range', '`from` is after `to`.', [{ path: 'body/from', message: 'must not be after to', code: 'range' }]);
  }
  if (input.to > addDays(input.from, MAX_BATCH_DAYS - 1)) {
    throw Unprocessable('range_too_long', `A schedule covers at most ${MAX_BATCH_DAYS} days.`, [{ path: 'body/to', message: `at most ${MAX_BATCH_DAYS} days after from`, code: 'range' }]);
  }
  let days: string[];
  if (input.dates) {
    const outside: FieldError[] = input.dates.flatMap((date, index) =>
      date < input.from || date > input.to ? [{ path: `body/dates/${index}`, message: 'is outside from..to', code: 'range' }] : [],
    );
    if (outside.length) throw Unprocessable('date_out_of_range', 'Every date must lie between `from` and `to`.', outside);
    days = [...input.dates].sort();
  } else {
    days = datesOnWeekdays(input.from, input.to, input.weekdays ?? []);
  }
  const count = days.length * input.times.length;
  if (count > MAX_BATCH_EVENTS) {
    throw Unprocessable('batch_too_large', `The schedule makes ${count} events; at most ${MAX_BATCH_EVENTS} per call.`);
  }
  return days;
}

async function findShow(trx: Knex.Transaction, input: EventBatchInput): Promise<Show> {
  const query = Show.query(trx).forShare();
  const show = await (input.showId ? query.findById(input.showId) : query.findOne({ code: input.showCode }));
  const field = input.showId ? 'body/showId' : 'body/showCode';
  if (!show) throw Unprocessable('unknown_show', 'No such show.', [{ path: field, message: 'no such show', code: 'not_found' }]);
  if (show.status === 'ARCHIVED') throw Conflict('show_archived', 'The show is archived and takes no new events.');
  return show;
}

/**
 * Creates a show's events from a local schedule (the seeder's route), idempotent by slug: an event whose slug
 * exists is left untouched and counted unchanged. Each local date and time becomes an instant in the venue's
 * zone on its own day, so the wall-clock time holds across daylight-saving changes. One transaction.
 */
export async function createShowEventBatch(app: AppContext, input: EventBatchInput, actor: StaffActor, now = new Date()) {
  const zone = app.config.venueTimezone;
  const days = scheduleDays(input);
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, afterCommit }) => {
    await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'showEvent' });
    const show = await findShow(trx, input);
    // Two local times can name one instant (a time skipped by a DST change moves forward): one event each.
    const planned = new Map<string, { startsAt: Date; doorsAt: Date | null }>();
    for (const date of days) {
      for (const time of [...input.times].sort()) {
        const startsAt = atLocal(date, time, zone);
        const doorsAt = input.doorsMinutesBefore === undefined ? null : new Date(startsAt.getTime() - input.doorsMinutesBefore * 60_000);
        const slug = eventSlug(show.slug, startsAt, zone);
        if (!planned.has(slug)) planned.set(slug, { startsAt, doorsAt });
      }
    }
    const slugs = [...planned.keys()];
    const existing = await takenSlugs(trx, slugs);
    const rows = slugs
      .filter((slug) => !existing.has(slug))
      .map((slug) => {
        const { startsAt, doorsAt } = planned.get(slug)!;
        return {
          show_id: show.id,
          slug,
          starts_at: startsAt,
          doors_at: doorsAt,
          capacity: input.capacity,
          sales_open: Boolean(input.salesOpen) && startsAt > now,
          status: 'SCHEDULED',
        };
      });
    // ON CONFLICT: an event a concurrent call created in the meantime is unchanged too, never an error.
    const created = new Set(await insertEventsIgnoringTakenSlugs(trx, rows));
    return {
      showId: show.id,
      created: created.size,
      unchanged: slugs.length - created.size,
      createdSlugs: slugs.filter((slug) => created.has(slug)),
    };
  });
}
