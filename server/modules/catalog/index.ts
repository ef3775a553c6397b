/**
 * The `catalog` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { cacheable, presentation } from './answers.ts';
export { CATALOG_TOPIC, CatalogCache } from './cache.ts';
export { type Presentation, assetUrl, eventAvailability, offersFor } from './presenters.ts';
export { type EventRow, MAX_RANGE_DAYS, type OfferRow, type Sales, type ShowRow, dateWindow, findPublicEvent, listPublishedShows, listUpcomingEvents } from './queries.ts';
