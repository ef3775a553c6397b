import { randomUUID } from 'node:crypto';
import { eventSlug } from '../../../server/domain/venueTime.ts';
import { ShowEvent } from '../../../server/modules/showEvents/models.ts';

/** The showEvents module's rows. */

export const ZONE = 'Asia/Ho_Chi_Minh';

export type EventOverrides = Partial<
  Pick<ShowEvent, 'slug' | 'startsAt' | 'doorsAt' | 'capacity' | 'salesOpen' | 'status' | 'staffNotes' | 'cancelledAt' | 'cancellationReason' | 'completedAt'>
> & {
  /** Doors this many minutes before the start (instead of `doorsAt`). */
  doorsMinutes?: number | null;
};

/** The API's name for an event, or (taken already: same show, same minute) that name with a random tail. */
async function freeSlug(slug: string): Promise<string> {
  return (await ShowEvent.query().findOne({ slug })) ? `${slug}-${randomUUID().slice(0, 6)}` : slug;
}

/** An event row; its slug is typed as set (it is null only when a spec asks for `slug: null`). */
export type EventRow = ShowEvent & { slug: string };

/** A trait: an event on sale as the public catalog shows it (sales open, 120 seats, doors an hour before). */
export const ON_SALE = { salesOpen: true, capacity: 120, doorsMinutes: 60 } as const;

/**
 * An event of `show` as staff would schedule it: SCHEDULED, sales closed, 100 seats, no doors time, a week from
 * now, named by the show's slug and its local start as the API names it (with a random tail when that name is
 * taken). A CANCELLED or COMPLETED status is stamped now unless told otherwise.
 */
export async function buildEvent(show: { id: string; slug: string }, overrides: EventOverrides = {}): Promise<EventRow> {
  const startsAt = overrides.startsAt ?? new Date(Date.now() + 7 * 86_400_000);
  const status = overrides.status ?? 'SCHEDULED';
  const doorsAt =
    overrides.doorsAt !== undefined ? overrides.doorsAt : overrides.doorsMinutes == null ? null : new Date(startsAt.getTime() - overrides.doorsMinutes * 60_000);
  const event = await ShowEvent.query().insertAndFetch({
    showId: show.id,
    slug: overrides.slug === undefined ? await freeSlug(eventSlug(show.slug, startsAt, ZONE)) : overrides.slug,
    startsAt,
    doorsAt,
    capacity: overrides.capacity ?? 100,
    salesOpen: overrides.salesOpen ?? false,
    status,
    staffNotes: overrides.staffNotes ?? null,
    cancellationReason: overrides.cancellationReason ?? null,
    cancelledAt: overrides.cancelledAt !== undefined ? overrides.cancelledAt : status === 'CANCELLED' ? new Date() : null,
    completedAt: overrides.completedAt !== undefined ? overrides.completedAt : status === 'COMPLETED' ? new Date() : null,
  });
  return event as EventRow;
}
