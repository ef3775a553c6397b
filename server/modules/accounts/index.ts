/**
 * The `accounts` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { Account, OrganizationMember } from './models.ts';
export { presentPrincipal } from './presenters.ts';
export { administratorAddresses, loginEmail, membershipsOf } from './queries.ts';
