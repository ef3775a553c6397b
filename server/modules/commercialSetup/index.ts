/**
 * The `commercialSetup` module's door: what other modules may use (types, reads). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { type CommercialSetup } from './models.ts';
export { getCommercialSetup } from './queries.ts';
