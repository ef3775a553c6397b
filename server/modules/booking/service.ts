/**
 * @deprecated The booking module's former service file, split into queries.ts (reads), commands/ (writes),
 * status.ts, inputs.ts and extensions.ts. Only this path's re-exports remain, for importers outside this module
 * that still name it: server/modules/record.ts (`SeatClaimProvider`), server/modules/index.ts (`BookingExtensions`) and the vouchers, promoCodes and email specs
 * (`expireHolds`). Nothing is defined here.
 */
export type { BookingExtensions, SeatClaimProvider } from './extensions.ts';
export { expireHolds } from './commands/expireHolds.ts';
