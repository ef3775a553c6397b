/**
 * The `customers` module's door: what other modules may use. It imports no handler and no operation's command; its
 * record is module.ts. The exports module (issue 36 §2) exports the CRM's customers with the list's own filters.
 */
export { type CustomerFilters, filterCustomers } from './queries.ts';
