import { atLocal } from '../../../server/domain/venueTime.ts';
import { ZONE } from '../showEvents/factories.ts';

/** Helpers of the public catalog's specs (their rows come from the modules' factories). */

export { ZONE };

/** The instant of local `date` `time` in the venue's zone. */
export const local = (date: string, time: string) => atLocal(date, time, ZONE);

/** Keys only staff views have (the public presenters name events by slug and state, offers by code). */
export const STAFF_ONLY_KEYS = new Set([
  'id',
  'showId',
  'eventId',
  'capacity',
  'seatsTaken',
  'staffNotes',
  'cancellationReason',
  'cancelledAt',
  'completedAt',
  'salesOpen',
  'status',
  'canonical',
  'sortOrder',
  'salesStartsAt',
  'salesEndsAt',
  'imageBlobIds',
  'untranslated',
  'publishedAt',
  'archivedAt',
  'createdAt',
  'updatedAt',
  'fulfillmentItemId',
]);

/** Every key of a JSON value, at any depth. */
export function keysOf(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      found.add(key);
      keysOf(inner, found);
    }
  }
  return found;
}
