import type { Knex } from 'knex';
import type { AppContext } from '../../platform/context.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { payableOf, type DeferredMethod, type Payable, type PayableRef, type PayableState } from '../../domain/payables.ts';
import { PAID_STATUSES, Payment, PaymentCallback, Refund, type CheckoutMethod, type Gateway, type PaymentStatus, type PaymentWithReference, type RefundStatus } from './models.ts';
import { vnpayOf } from './vnpay.ts';

/**
 * Payments (issue 9): the reads. Which methods a guest may use, what a payable still owes, and the reads of the
 * admin routes. Entity reads go through the models (payments.ts models); set-based SQL (sums, the commercial-setup
 * table this module does not own, the reservation's reference the admin contract shows) is here. Writes live in
 * `commands/`. A payment is for a payable (`payable_kind`, `payable_id`: server/domain/payables.ts); what payments
 * needs of it comes from its module's implementation (`app.payables`), never from its tables.
 *
 * Methods at checkout:
 * - `VNPAY`: VNPay configured (VNPAY_TMN_CODE + VNPAY_HASH_SECRET), or the development sandbox on (VNPAY_SANDBOX,
 *   see sandbox.ts), and the commercial setup's gateways hold VNPAY;
 * - `BANK_TRANSFER`: the venue's account configured (BANK_TRANSFER_ACCOUNT_NAME/NUMBER, BANK_TRANSFER_BANK);
 * - `PAY_AT_VENUE`: the commercial setup's gateways hold CASH (paid at the venue, recorded by staff).
 */

/** The methods a guest may choose now, in the order the site should offer them. */
export async function enabledMethods(knex: Knex, app: AppContext): Promise<CheckoutMethod[]> {
  // `commercial_setup` belongs to the commercialSetup module, which exports no model: its SQL stays here.
  const setup = await knex('commercial_setup').where({ id: 1 }).first('payment_gateways');
  const gateways: string[] = typeof setup?.payment_gateways === 'string' ? JSON.parse(setup.payment_gateways) : (setup?.payment_gateways ?? []);
  const methods: CheckoutMethod[] = [];
  if (gateways.includes('VNPAY') && vnpayOf(app).isConfigured) methods.push('VNPAY');
  if (app.config.bankTransfer) methods.push('BANK_TRANSFER');
  if (gateways.includes('CASH')) methods.push('PAY_AT_VENUE');
  return methods;
}

/**
 * The methods `payable` (in its current `state`) may be paid by now, of those enabled: paying at the venue only when
 * the payable has terms for it (issue 34 §1: a reservation within the venue's caps, or above them with staff
 * approval) and applies them.
 */
export const methodsFor = (payable: Pick<Payable, 'deferPayment'>, state: Pick<PayableState, 'payLater'>, methods: CheckoutMethod[]): CheckoutMethod[] =>
  methods.filter((method) => method !== 'PAY_AT_VENUE' || (payable.deferPayment !== undefined && state.payLater?.('PAY_AT_VENUE')?.terms !== undefined));

/** The payments of a payable (the two columns every payment carries). */
const ofPayable = (payable: PayableRef) => ({ payable_kind: payable.kind, payable_id: payable.id });

/** What the payable's payments brought in, net of succeeded refunds (whole VND). */
export async function netPaid(knex: Knex, payable: PayableRef): Promise<number> {
  const row = await knex('payments')
    .where(ofPayable(payable))
    .whereIn('status', [...PAID_STATUSES, 'REFUNDED'])
    .first(knex.raw('coalesce(sum(amount_vnd - refunded_vnd), 0) as net'));
  return Number(row?.net ?? 0);
}

/** What the payable's other payments brought in (every payment but `paymentId`), net of succeeded refunds. */
export async function netPaidBefore(trx: Knex.Transaction, payable: PayableRef, paymentId: string): Promise<number> {
  const row = await trx('payments')
    .where(ofPayable(payable))
    .whereNot({ id: paymentId })
    .whereIn('status', ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'])
    .first(trx.raw('coalesce(sum(amount_vnd - refunded_vnd), 0) as net'));
  return Number(row?.net ?? 0);
}

/** What is left to refund on a payment: paid − refunded − refunds still pending. */
export async function refundable(knex: Knex, payment: Pick<Payment, 'id' | 'amountVnd' | 'refundedVnd'>): Promise<number> {
  const row = await knex('refunds').where({ payment_id: payment.id, status: 'PENDING' }).first(knex.raw('coalesce(sum(amount_vnd), 0) as pending'));
  return payment.amountVnd - payment.refundedVnd - Number(row?.pending ?? 0);
}

/** The payable's paid payments (oldest first): what a cancellation refunds. */
export async function paidPaymentsOf(trx: Knex.Transaction, payable: PayableRef): Promise<Payment[]> {
  return await Payment.query(trx).where(ofPayable(payable)).whereIn('status', PAID_STATUSES).orderBy('created_at').select('id', 'amount_vnd', 'refunded_vnd');
}

/** A VNPay payment by its `vnp_TxnRef`, with what it settles. */
export async function vnpayPaymentByTxnRef(knex: Knex, txnRef: string): Promise<Pick<Payment, 'id' | 'status' | 'payableKind' | 'payableId'> | undefined> {
  return await Payment.query(knex).where({ txn_ref: txnRef, gateway: 'VNPAY' }).first().select('id', 'status', 'payable_kind', 'payable_id');
}

// ---- the payer's checkout options ----------------------------------------------------------------------------------

/**
 * What the payer's checkout page shows for a payable the caller opened (a reservation: its guest token): the methods
 * it may use now, the amount due, and what paying later would do (issue 34 §1): paying at the venue confirms at once
 * or waits for staff's approval until a deadline, a bank transfer keeps it until its deadline; a method refused for
 * this payable (above the venue's pay-at-the-venue caps) is listed with why.
 */
export async function checkoutOptions(app: AppContext, ref: PayableRef) {
  const knex = app.db.knex;
  const implementation = payableOf(app.payables, ref.kind);
  const payable = await implementation.view(knex, ref.id);
  if (!payable) throw NotFound(`No such ${implementation.noun}.`);
  const enabled = await enabledMethods(knex, app);
  const methods = methodsFor(implementation, payable, enabled);
  const amountDueVnd = Math.max(0, payable.totalVnd - (await netPaid(knex, ref)));
  const open = payable.refusal('checkout') === null;
  const offerOf = (method: DeferredMethod) => (open && enabled.includes(method) ? (payable.payLater?.(method) ?? null) : null);
  const atVenue = methods.includes('PAY_AT_VENUE') ? offerOf('PAY_AT_VENUE')?.terms : undefined;
  const transfer = methods.includes('BANK_TRANSFER') ? offerOf('BANK_TRANSFER')?.terms : undefined;
  const refused = offerOf('PAY_AT_VENUE')?.refusal;
  return {
    reference: payable.reference,
    status: payable.status,
    payable: open && amountDueVnd > 0 && methods.length > 0,
    amountDueVnd,
    holdExpiresAt: open && payable.payBy ? payable.payBy.toISOString() : null,
    methods,
    payAtVenue: atVenue ? { outcome: atVenue.outcome === 'CONFIRMED' ? ('CONFIRMED' as const) : ('AWAITING_APPROVAL' as const), payBy: atVenue.payBy?.toISOString() ?? null } : null,
    bankTransfer: transfer ? { payBy: transfer.payBy?.toISOString() ?? null } : null,
    unavailable: refused ? [{ method: 'PAY_AT_VENUE' as const, code: refused.code, detail: refused.detail }] : [],
  };
}

// ---- reads (admin) -------------------------------------------------------------------------------------------

/**
 * Payments with their reservation's reference (`reservationReference`): the admin routes' contract shows a
 * reservation's payments (`Payment.reservationId` is required), so they list the payments whose payable is a
 * reservation's (`reservation_id` set) and no other yet.
 */
const withReference = (knex: Knex) => Payment.query(knex).alias('p').join('reservations as r', 'r.id', 'p.reservation_id');

export interface PaymentFilters {
  reservationId?: string;
  status?: PaymentStatus;
  gateway?: Gateway;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

export async function listPayments(knex: Knex, filters: PaymentFilters): Promise<{ items: PaymentWithReference[]; total: number }> {
  const base = withReference(knex).where((q) => {
    if (filters.reservationId) q.where('p.reservation_id', filters.reservationId);
    if (filters.status) q.where('p.status', filters.status);
    if (filters.gateway) q.where('p.gateway', filters.gateway);
    if (filters.from) q.where('p.created_at', '>=', new Date(filters.from));
    if (filters.to) q.where('p.created_at', '<', new Date(filters.to));
  });
  const total = await base.clone().resultSize();
  const items = (await base
    .clone()
    .select('p.*', 'r.reference as reservation_reference')
    .orderBy([{ column: 'p.created_at', order: 'desc' }, { column: 'p.id', order: 'desc' }])
    .limit(filters.limit)
    .offset(filters.offset)) as PaymentWithReference[];
  return { items, total };
}

/** One payment with its reservation's reference; 404 when there is none. */
export async function paymentById(knex: Knex, id: string): Promise<PaymentWithReference> {
  const payment = (await withReference(knex).where('p.id', id).first().select('p.*', 'r.reference as reservation_reference')) as PaymentWithReference | undefined;
  if (!payment) throw NotFound('No such payment.');
  return payment;
}

export async function paymentDetail(knex: Knex, id: string) {
  const payment = await paymentById(knex, id);
  const refunds = await Refund.query(knex).where({ payment_id: id }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
  const callbacks = await PaymentCallback.query(knex).where({ payment_id: id }).orderBy('id', 'desc').limit(100).select('kind', 'signature_valid', 'outcome', 'received_at');
  return { payment, refunds, callbacks };
}

export async function listRefunds(knex: Knex, filters: { paymentId?: string; status?: RefundStatus; limit: number; offset: number }): Promise<{ items: Refund[]; total: number }> {
  const base = Refund.query(knex).where((q) => {
    if (filters.paymentId) q.where('payment_id', filters.paymentId);
    if (filters.status) q.where('status', filters.status);
  });
  const total = await base.clone().resultSize();
  const items = await base
    .clone()
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(filters.limit)
    .offset(filters.offset);
  return { items, total };
}
