import type { Config } from '../../platform/config.ts';
import { Conflict, Unprocessable } from '../../platform/http/problem.ts';
import type { ShowEvent } from './models.ts';

/** What the catalog reads from the configuration: the venue's zone and the site's locales. */
export type CatalogSettings = Pick<Config, 'venueTimezone' | 'siteLocales' | 'defaultLocale'>;

export const eventClosed = (event: ShowEvent) =>
  Conflict('event_closed', `The event is ${event.status.toLowerCase()}; only a scheduled event changes.`);

/** A body's `doorsAt` must not come after its `startsAt` (422, never the database's CHECK as a 500). */
export function checkDoors(startsAt: Date, doorsAt: Date | null): void {
  if (doorsAt && doorsAt > startsAt) {
    throw Unprocessable('doors_after_start', 'Doors cannot open after the show starts.', [{ path: 'body/doorsAt', message: 'must not be after startsAt', code: 'range' }]);
  }
}
