import { fillLocales } from '../../domain/localized.ts';
import { toLocal } from '../../domain/venueTime.ts';
import { iso } from '../presenting.ts';
import type { Show } from '../shows/index.ts';
import type { ShowEvent } from './models.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { CatalogSettings } from './rules.ts';

/** The show of an event as staff see it: its title in every site locale (the default one filling gaps). */
export function presentEventShow(show: Show, settings: CatalogSettings): Schema<'ShowEventShow'> {
  return { id: show.id, code: show.code, slug: show.slug, status: show.status, title: fillLocales(show.title, settings.siteLocales, settings.defaultLocale) };
}

/** The staff view of an event (capacity, notes, cancellation fields), with its local date and times in the venue's zone. */
export function presentShowEvent(event: ShowEvent, show: Show, settings: CatalogSettings): Schema<'ShowEvent'> {
  const zone = settings.venueTimezone;
  const start = toLocal(new Date(event.startsAt), zone);
  return {
    id: event.id,
    showId: event.showId,
    show: presentEventShow(show, settings),
    slug: event.slug,
    status: event.status,
    startsAt: iso(event.startsAt)!,
    doorsAt: iso(event.doorsAt),
    timezone: zone,
    localDate: start.date,
    localTime: start.time,
    weekday: start.weekday,
    doorsLocalTime: event.doorsAt ? toLocal(new Date(event.doorsAt), zone).time : null,
    capacity: event.capacity,
    salesOpen: event.salesOpen,
    staffNotes: event.staffNotes,
    cancelledAt: iso(event.cancelledAt),
    cancellationReason: event.cancellationReason,
    completedAt: iso(event.completedAt),
    createdAt: iso(event.createdAt)!,
    updatedAt: iso(event.updatedAt)!,
  };
}

export type PresentedShowEvent = ReturnType<typeof presentShowEvent>;
