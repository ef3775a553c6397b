import type { Knex } from 'knex';
import type { ProblemCode } from '../platform/http/problemCodes.ts';
import type { DomainContext } from './events.ts';

/**
 * What money settles (DESIGN.md "Modules": money settles a *payable*). The payments module takes, confirms and
 * refunds an amount for anything that implements `Payable` — a reservation today (the booking module's
 * `reservationPayable`), a gift-voucher order or a deposit tomorrow — and knows nothing else of it: its VNPay IPN,
 * return, refunds, checkout and development sandbox deal in (payableKind, payableId), the two columns every
 * `payments` row carries. A module declares its payables in its record (`payables`); `server/modules/index.ts`
 * gathers them and the app context holds them by kind (`app.payables`).
 *
 * Everything a payable does runs inside the payment's unit of work (its `trx`, actor and clock), after `lock`.
 */

/** The kinds of payable (`payments.payable_kind`): `reservation` today; `voucher_order` is the next one planned. */
export type PayableKind = string;

/** A payable as payments names it (the pair every payment row carries). */
export interface PayableRef {
  kind: PayableKind;
  id: string;
}

/** Why a payable cannot take money now: a 409 with this code and detail. */
export interface PayableRefusal {
  code: ProblemCode;
  detail: string;
}

/** The payable as `lock` (or `view`) found it: what payments needs to take money for it. */
export interface PayableState {
  id: string;
  /** Whole VND owed in all (payments subtracts what its own rows already brought in, net of refunds). */
  totalVnd: number;
  currency: 'VND';
  /** The reference the payer knows (a reservation's `VN-…`). */
  reference: string;
  /**
   * The stem of the references payments writes for it (VNPay's `vnp_TxnRef`, a bank transfer's reference, an
   * on-site payment's): letters and digits (a reservation's code without `VN-`).
   */
  txnRefPrefix: string;
  /** What VNPay shows the payer (`vnp_OrderInfo`, ASCII) and what its refunds say (refund `orderInfo`). */
  orderInfo: string;
  refundInfo: string;
  /** The payer's locale (the gateway page's language, the site's return page), null when unknown. */
  locale: string | null;
  /** Until when the payable waits for its money (a hold's end); a gateway link never outlives it. */
  payBy: Date | null;
  /**
   * Whether it can be paid now: null, or why not. `checkout` is the payer's own online checkout, `desk` staff
   * recording money received on site.
   */
  refusal(channel: 'checkout' | 'desk'): PayableRefusal | null;
  /**
   * Its status as its payer sees it (the checkout options page, the browser return's `VnpayReturnResult`), null
   * for none.
   */
  status: string | null;
  /**
   * The reservation the payment is for, if any: kept on `payments.reservation_id` for the admin routes' contract
   * (`Payment.reservationId`) and the readers of that column; null for a payable that is no reservation's.
   */
  reservationId: string | null;
  /**
   * What choosing to pay later by `method` would do to it now (issue 34 §1: paying later never loses what was
   * chosen): its terms, or why the method is refused for it (a 422 with that code). Undefined (or an answer of
   * null) when the payable has no terms for the method: `PAY_AT_VENUE` is then not offered; `BANK_TRANSFER` is, as
   * a transfer reference alone (nothing is kept for it).
   */
  payLater?(method: DeferredMethod): PayLaterOffer | null;
}

/** The methods a payer pays later by: at the venue (cash or card, staff record it), or by bank transfer. */
export type DeferredMethod = 'PAY_AT_VENUE' | 'BANK_TRANSFER';

/**
 * What choosing to pay later does: `CONFIRMED` — the payable is settled now and the money is due later (at the
 * venue); `AWAITING_APPROVAL` — it is kept until `payBy` for staff to accept; `AWAITING_PAYMENT` — it is kept until
 * `payBy` for the money (a transfer) to arrive.
 */
export interface PayLaterTerms {
  outcome: 'CONFIRMED' | 'AWAITING_APPROVAL' | 'AWAITING_PAYMENT';
  /** Until when it is kept (null once confirmed). */
  payBy: Date | null;
  /** What the payer is told, by language (`en`, `vi`). */
  instructions: { en: string; vi: string };
}

export type PayLaterOffer = { terms: PayLaterTerms; refusal?: undefined } | { refusal: PayableRefusal; terms?: undefined };

/** What payments tells the payable when its payer chooses to pay later. */
export interface DeferredPayment {
  method: DeferredMethod;
  /** What is due. */
  amountVnd: number;
  /** With `BANK_TRANSFER`: the reference the payer quotes (the pending payment's). */
  transferReference?: string;
}

/** The payment `onPaid` is told of. */
export interface PaidPayment {
  paymentId: string;
  amountVnd: number;
  /** `gateway`: the payer paid online (the IPN); `desk`: staff recorded money they hold. */
  via: 'gateway' | 'desk';
  /** What the payable's other payments brought in (net of refunds) before this one. */
  paidBeforeVnd: number;
}

/** A payment whose outcome is reported to the payable (`onPaymentFailed`, `onRefunded`). */
export interface PayablePayment {
  paymentId: string;
  gateway: string;
  amountVnd: number;
  refundedVnd: number;
}

/** What payments reports to the payable's analytics (after the commit): today's business events. */
export type PayableActivity = 'checkoutStarted' | 'paymentCompleted' | 'paymentFailed' | 'refundProcessed';

export interface Payable {
  kind: PayableKind;
  /** What its payer calls it, in problem details (`No such reservation.`, `Nothing is due on this reservation.`). */
  noun: string;
  /**
   * Finds and locks the payable in the payment's transaction, in the owner's lock order (payments locks its own
   * payment row after this); undefined when there is none.
   */
  lock(ctx: DomainContext, id: string): Promise<PayableState | undefined>;
  /** The payable without a lock (the browser return, the checkout options page). */
  view(knex: Knex, id: string): Promise<PayableState | undefined>;
  /**
   * The payment succeeded (its row is already SUCCEEDED, its `payment.captured` published): the owner takes the
   * money (a reservation is confirmed). Answers null, or why it cannot take it — then payments keeps the money
   * recorded and refunds it. Throwing aborts the whole unit of work (nothing is recorded).
   */
  onPaid(ctx: DomainContext, payable: PayableState, payment: PaidPayment): Promise<string | null>;
  /**
   * Its payer chose to pay later by a method its state offered terms for (`PayableState.payLater`, checked by
   * payments after `lock`): the owner applies them (a reservation is confirmed, or its hold kept until the deadline)
   * and answers the terms it applied and its status after them.
   */
  deferPayment?(ctx: DomainContext, payable: PayableState, choice: DeferredPayment): Promise<PayLaterTerms & { status: string | null }>;
  /** A gateway payment of it failed (the row is FAILED, `payment.failed` published). */
  onPaymentFailed?(ctx: DomainContext, payableId: string, payment: PayablePayment): Promise<void>;
  /** A refund of its money succeeded (the payment row shows the new refunded sum). */
  onRefunded?(ctx: DomainContext, payableId: string, payment: PayablePayment & { refundId: string; refundVnd: number }): Promise<void>;
  /** The owner's analytics of its payments (called after the commit; must not throw). */
  track?(ctx: Pick<DomainContext, 'app'>, payableId: string, activity: PayableActivity, properties: Record<string, unknown>): Promise<void>;
}

/** The app's payables by kind. */
export type Payables = ReadonlyMap<PayableKind, Payable>;

declare module '../platform/context.ts' {
  interface AppContext {
    /** Every module's payables (their records' `payables`), by kind: what payments can take money for. */
    payables: Payables;
  }
}

/** The payables by kind, refusing a kind declared twice. */
export function payablesByKind(list: readonly Payable[]): Payables {
  const byKind = new Map<PayableKind, Payable>();
  for (const payable of list) {
    if (byKind.has(payable.kind)) throw new Error(`the payable kind "${payable.kind}" is declared twice`);
    byKind.set(payable.kind, payable);
  }
  return byKind;
}

/** The implementation of `kind`; an error (a server fault, never a caller's) when no module declares it. */
export function payableOf(payables: Payables, kind: PayableKind): Payable {
  const payable = payables.get(kind);
  if (!payable) throw new Error(`no module declares the payable kind "${kind}"`);
  return payable;
}
