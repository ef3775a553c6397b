import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { policy } from './publicPolicy.ts';
import { catalogServices, subscribers } from './services.ts';

/** The `catalog` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'catalog', handlers, policy, subscribers, services: catalogServices } satisfies ModuleRecord;
}

// ---- what other modules use (they import this module through this file only) ----
export { cacheable, presentation } from './answers.ts';
export { CATALOG_TOPIC, CatalogCache, catalogChanged } from './cache.ts';
export { type Presentation, assetUrl, eventAvailability, offersFor } from './presenters.ts';
export { type EventRow, MAX_RANGE_DAYS, type OfferRow, type Sales, type ShowRow, dateWindow, findPublicEvent, listPublishedShows, listUpcomingEvents } from './queries.ts';
