/**
 * The `reservations` module's door: what other modules may use. It imports no handler and no operation's command;
 * its record is module.ts. The exports module (issue 36 §2) exports the operators' list with the list's own filters
 * and order.
 */
export { filterReservations, RESERVATION_ORDERS, type ReservationFilters } from './queries.ts';
