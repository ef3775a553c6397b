/**
 * The `assistantCatalog` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { siteRoutes } from './routes.ts';
