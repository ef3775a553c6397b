import type { AppContext } from '../../platform/context.ts';
import type { PrimeWork } from '../../platform/prime.ts';

/**
 * The catalog's part of priming (server/platform/prime.ts): the public catalog read and one event's page walked
 * through the chain before readiness. Both are reads; the first fills the catalog cache (memory), as the first
 * guest's read would.
 */
export async function primeCatalog(app: AppContext): Promise<PrimeWork> {
  const next = await app.db.knex('show_events').where('status', 'SCHEDULED').andWhere('starts_at', '>', new Date()).orderBy('starts_at').first('slug');
  return {
    operations: ['listPublicShowEvents', 'getPublicShowEvent', 'listPublicShows'],
    requests: [
      { method: 'GET', path: '/api/public/show-events' },
      ...(next ? [{ method: 'GET' as const, path: `/api/public/show-events/${encodeURIComponent(next.slug)}` }] : []),
    ],
  };
}
