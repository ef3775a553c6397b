/**
 * The `tables` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { TABLE_ZONES, type TableZone, VenueTable } from './models.ts';
