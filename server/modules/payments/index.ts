/**
 * The `payments` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { PAID_STATUSES } from './models.ts';
/** A module selling a payable (server/domain/payables.ts) starts its payer's checkout with this, and lists it in its record's `payables`. */
export { checkoutPayable, type CheckoutAnswer, type CheckoutInput } from './checkout.ts';
/** What a payable's payments brought in, net of refunds (whole VND). */
export { netPaid } from './queries.ts';
/** A payable's owner refunds what its payments brought in (in its unit of work), then sends the VNPay refunds after the commit. */
export { refundPayable, sendRefundsNow } from './refunds.ts';
export { claimSeconds } from './commands/requestRefund.ts';
/** The base URL VNPay's return (and the sandbox's pay page) are built on, as the request reached this server. */
export { callbackBaseUrl } from './vnpay.ts';
