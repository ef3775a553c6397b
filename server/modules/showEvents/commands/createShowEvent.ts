import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { eventSlug } from '../../../domain/venueTime.ts';
import { Conflict, Unprocessable } from '../../../platform/http/problem.ts';
import { Show } from '../../shows/index.ts';
import { ShowEvent } from '../models.ts';
import { checkDoors } from '../rules.ts';
import { withSlugCheck } from './eventChange.ts';

export interface CreateShowEventInput {
  showId: string;
  startsAt: string;
  doorsAt?: string;
  capacity: number;
  salesOpen?: boolean;
  staffNotes?: string | null;
}

/**
 * Schedules one performance. The show is read with a share lock, so it cannot be archived half-way; the slug
 * is `<show slug>-<local date>-<local hhmm>`, unique, so a show has one event per local minute.
 */
export async function createShowEvent(app: AppContext, input: CreateShowEventInput, actor: StaffActor, now = new Date()) {
  const zone = app.config.venueTimezone;
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, afterCommit }) => {
    await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'showEvent' });
    const show = await Show.query(trx).findById(input.showId).forShare();
    if (!show) throw Unprocessable('unknown_show', 'No show has this id.', [{ path: 'body/showId', message: 'no such show', code: 'not_found' }]);
    if (show.status === 'ARCHIVED') throw Conflict('show_archived', 'The show is archived and takes no new events.');
    const startsAt = new Date(input.startsAt);
    const doorsAt = input.doorsAt ? new Date(input.doorsAt) : null;
    checkDoors(startsAt, doorsAt);
    if (input.salesOpen && startsAt <= now) {
      throw Unprocessable('event_started', 'Sales cannot open on an event that has already started.', [{ path: 'body/salesOpen', message: 'the event has started', code: 'state' }]);
    }
    const slug = eventSlug(show.slug, startsAt, zone);
    const event = await withSlugCheck(trx, slug, null, () =>
      ShowEvent.query(trx).insertAndFetch({
        showId: show.id,
        slug,
        startsAt,
        doorsAt,
        capacity: input.capacity,
        salesOpen: input.salesOpen ?? false,
        status: 'SCHEDULED',
        staffNotes: input.staffNotes ?? null,
      }),
    );
    return { event, show };
  });
}
