/**
 * The `vouchers` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { type Voucher } from './models.ts';
export { effectiveVoucherStatus } from './codes.ts';
/** A gift-voucher order (issue 36 §1) issues its voucher, and voids it when refunded unused, in its own transaction. */
export { issueVoucher, voidVoucherIfUnused, type VoucherIssue } from './commands/issueVoucher.ts';
export { findVoucherOrFail } from './queries.ts';
