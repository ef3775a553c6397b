import { atLocal } from '../../../server/domain/venueTime.ts';
import type { TestServer } from '../../helpers/server.ts';
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

/**
 * For a spec that writes catalog rows directly (factories, knex), as staff would through the API: every write
 * statement on the server's database clears the app's catalog cache, so the reads see those rows as they would
 * after the staff command. The cache's own invalidation by the commands and domain events is what
 * catalogCache.spec.ts tests; this keeps the other catalog specs about what the reads answer.
 */
export function forgetAnswersOnDirectWrites(server: TestServer): () => void {
  const onResponse = (_response: unknown, query: { sql?: string }) => {
    if (query.sql && /^\s*(insert|update|delete)\b/i.test(query.sql)) server.app.context.catalogCache.clear();
  };
  server.db.knex.on('query-response', onResponse);
  return () => server.db.knex.off('query-response', onResponse);
}
