import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { eventSlug } from '../../../domain/venueTime.ts';
import { eventsWithShowSlugs, lockEventsTable, rewriteSlugs } from '../queries.ts';

export interface SlugChange {
  eventId: string;
  from: string | null;
  to: string;
}

/** `slug` names this event: its canonical slug, or that with a collision suffix (`-2`, `-3` …). */
export function slugFits(slug: string | null, canonical: string): boolean {
  if (slug === null) return false;
  if (slug === canonical) return true;
  const suffix = slug.startsWith(`${canonical}-`) ? slug.slice(canonical.length + 1) : '';
  return /^[1-9][0-9]*$/.test(suffix) && Number(suffix) >= 2;
}

/**
 * The one-time data migration of spec §4.5: every event whose slug is missing or does not name its show and
 * local start gets the canonical one (the first free `-2`, `-3` … when another event holds it). Slugs that fit
 * are never touched, so a second run changes nothing. The table is locked against writes for the run; the
 * changing rows are cleared first and then set, so a slug moving from one event to another never collides.
 */
export async function backfillEventSlugs(app: AppContext, options: { dryRun: boolean }, actor: StaffActor) {
  const zone = app.config.venueTimezone;
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
    await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'showEvent' });
    if (!options.dryRun) await lockEventsTable(trx);
    const events = await eventsWithShowSlugs(trx);

    const canonical = new Map(events.map((event) => [event.id, eventSlug(event.showSlug, new Date(event.startsAt), zone)]));
    const stale = events.filter((event) => !slugFits(event.slug, canonical.get(event.id)!));
    const staleIds = new Set(stale.map((event) => event.id));
    const taken = new Set(events.filter((event) => !staleIds.has(event.id)).map((event) => event.slug!));
    const changes: SlugChange[] = stale.map((event) => {
      const base = canonical.get(event.id)!;
      let slug = base;
      for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
      taken.add(slug);
      return { eventId: event.id, from: event.slug, to: slug };
    });

    if (!options.dryRun && changes.length) await rewriteSlugs(trx, changes);
    return { dryRun: options.dryRun, scanned: events.length, changed: changes.length, unchanged: events.length - changes.length, changes };
  });
}
