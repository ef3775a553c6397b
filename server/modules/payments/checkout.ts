import type { AppContext } from '../../platform/context.ts';
import { payableOf, type DeferredMethod, type PayableRef, type PayableState, type PayLaterTerms } from '../../domain/payables.ts';
import { Conflict, NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { inTransition } from '../../domain/unitOfWork.ts';
import { trackAfterCommit } from './hooks.ts';
import { SANDBOX_PATH } from './sandbox.ts';
import { Payment, type CheckoutMethod } from './models.ts';
import { enabledMethods, methodsFor, netPaid } from './queries.ts';
import { newTransferReference, newVnpayTxnRef } from './references.ts';
import { vnpayOf } from './vnpay.ts';

/** A VNPay payment URL is good for at most this long (and never past the hold). */
export const PAYMENT_URL_TTL_MINUTES = 15;

export interface CheckoutInput {
  method: CheckoutMethod;
  locale?: 'vn' | 'en';
  bankCode?: string;
}

type Language = 'en' | 'vi';

export interface CheckoutAnswer {
  method: CheckoutMethod;
  reference: string;
  /** The payable's status after the checkout (a reservation paid at the venue is CONFIRMED by it). */
  status: string | null;
  amountVnd: number;
  holdExpiresAt: string | null;
  paymentId: string | null;
  vnpay?: { paymentUrl: string; txnRef: string; expiresAt: string };
  bankTransfer?: {
    account: { accountName: string; accountNumber: string; bankName: string };
    transferReference: string;
    amountVnd: number;
    payBy: string | null;
    instructions: string;
    instructionsLocale: Language;
  };
  payAtVenue?: { outcome: 'CONFIRMED' | 'AWAITING_APPROVAL'; amountDueVnd: number; payBy: string | null; instructions: string; instructionsLocale: Language };
}

/** What a payable without terms of its own says of a transfer (nothing is kept for it: the reference alone). */
const PLAIN_TRANSFER: PayLaterTerms['instructions'] = {
  en: 'Transfer the amount to the account below, with the transfer reference in the transfer’s description.',
  vi: 'Vui lòng chuyển khoản số tiền vào tài khoản dưới đây, ghi mã chuyển khoản trong nội dung chuyển khoản.',
};

const isDeferred = (method: CheckoutMethod): method is DeferredMethod => method === 'PAY_AT_VENUE' || method === 'BANK_TRANSFER';

/** The language of the payer's instructions: the one asked for (VNPay's `vn` is Vietnamese), else the payable's. */
const languageOf = (input: CheckoutInput, payable: PayableState, fallback: string): Language =>
  input.locale ? (input.locale === 'vn' ? 'vi' : 'en') : (payable.locale ?? fallback).toLowerCase().startsWith('vi') ? 'vi' : 'en';

const unavailable = (method: CheckoutMethod, methods: CheckoutMethod[]) => {
  const list = methods.length ? methods.join(', ') : 'none';
  return Unprocessable('payment_method_unavailable', `${method} is not available; enabled methods: ${list}.`, [
    { path: 'body/method', message: `is not enabled; enabled methods: ${list}`, code: 'payment_method_unavailable' },
  ]);
};

/**
 * The payer starts checkout for a payable the caller opened (a reservation: its guest token, checked by the
 * handler): only a payable that can be paid now (`refusal('checkout')`: a reservation HELD and unexpired) with
 * something due, and only an enabled method. See openapi/paths/payments.yaml `startCheckout`. One transaction (the
 * payable locked by its module); `checkout started` after the commit. `baseUrl` is what VNPay's return URL (and the
 * development sandbox's pay page) are built on: `callbackBaseUrl` of the request.
 *
 * Paying later (issue 34 §1) is the payable's to decide (`PayableState.payLater`, `Payable.deferPayment`): payments
 * records the transfer's pending payment and quotes its reference, then tells the payable, which confirms a
 * reservation paid at the venue or keeps its hold until the deadline; a method the payable refuses for this payer
 * is 422 with the payable's code (`pay_at_venue_over_limit`), and paying at the venue is offered only to a payable
 * with terms for it.
 */
export async function checkoutPayable(app: AppContext, ref: PayableRef, input: CheckoutInput, ip: string, baseUrl: string, now = new Date()): Promise<CheckoutAnswer> {
  const payable = payableOf(app.payables, ref.kind);
  return inTransition(
    app,
    'GUEST',
    async (ctx) => {
      const row = await payable.lock(ctx, ref.id);
      if (!row) throw NotFound(`No such ${payable.noun}.`);
      const refusal = row.refusal('checkout');
      if (refusal) throw Conflict(refusal.code, refusal.detail);
      const enabled = await enabledMethods(ctx.trx, app);
      const methods = methodsFor(payable, row, enabled);
      if (!enabled.includes(input.method)) throw unavailable(input.method, methods);
      // Paying later: the payable's terms for the method (issue 34 §1), or why it is refused for this one.
      const offer = isDeferred(input.method) ? (row.payLater?.(input.method) ?? null) : null;
      if (offer?.refusal) throw Unprocessable(offer.refusal.code, offer.refusal.detail, [{ path: 'body/method', message: offer.refusal.detail, code: offer.refusal.code }]);
      if (input.method === 'PAY_AT_VENUE' && !(offer && payable.deferPayment)) throw unavailable(input.method, methods);
      const amountVnd = row.totalVnd - (await netPaid(ctx.trx, ref));
      if (amountVnd <= 0) throw Conflict('nothing_to_pay', `Nothing is due on this ${payable.noun}.`);
      const payBy = row.payBy;
      const language = languageOf(input, row, app.config.defaultLocale);
      const answer: CheckoutAnswer = { method: input.method, reference: row.reference, status: row.status, amountVnd, holdExpiresAt: payBy?.toISOString() ?? null, paymentId: null };
      const owner = { payableKind: ref.kind, payableId: ref.id, reservationId: row.reservationId };
      /** The payable applies the terms of paying later (a reservation confirmed, or kept until the deadline). */
      const defer = async (transferReference?: string): Promise<PayLaterTerms | null> => {
        if (!offer?.terms || !payable.deferPayment) return null;
        const applied = await payable.deferPayment(ctx, row, { method: input.method as DeferredMethod, amountVnd, transferReference });
        answer.status = applied.status;
        answer.holdExpiresAt = applied.payBy?.toISOString() ?? null;
        return applied;
      };

      if (input.method === 'VNPAY') {
        const cap = new Date(now.getTime() + PAYMENT_URL_TTL_MINUTES * 60_000);
        const expiresAt = payBy && payBy < cap ? payBy : cap;
        const txnRef = newVnpayTxnRef(row.txnRefPrefix);
        const payment = await Payment.query(ctx.trx)
          .insert({ ...owner, gateway: 'VNPAY', status: 'PENDING', amountVnd, txnRef, expiresAt, createdAt: now, updatedAt: now })
          .returning('*');
        const paymentUrl = vnpayOf(app).createPaymentUrl({
          txnRef,
          amountVnd,
          orderInfo: row.orderInfo,
          locale: input.locale ?? ((row.locale ?? app.config.defaultLocale).startsWith('vi') ? 'vn' : 'en'),
          // VNPay wants the guest's address; one it would refuse (none, a proxy's placeholder) is sent as loopback.
          ipAddr: /^(::ffff:)?[0-9A-Fa-f.:]{2,45}$/.test(ip) ? ip : '127.0.0.1',
          returnUrl: `${baseUrl}/api/payments/vnpay/return`,
          // The development sandbox's pay page is this server, as the guest reaches it.
          paymentUrl: app.config.vnpaySandbox ? `${baseUrl}${SANDBOX_PATH}` : undefined,
          createdAt: now,
          expiresAt,
          bankCode: input.bankCode,
        });
        answer.paymentId = payment.id;
        answer.vnpay = { paymentUrl, txnRef, expiresAt: expiresAt.toISOString() };
      } else if (input.method === 'BANK_TRANSFER') {
        // One pending transfer reference per payable and amount: asking again quotes the same one.
        const payment =
          (await Payment.query(ctx.trx).where({ payable_kind: ref.kind, payable_id: ref.id, gateway: 'BANK_TRANSFER', status: 'PENDING', amount_vnd: amountVnd }).orderBy('created_at').first()) ??
          (await Payment.query(ctx.trx)
            .insert({ ...owner, gateway: 'BANK_TRANSFER', status: 'PENDING', amountVnd, txnRef: newTransferReference(row.txnRefPrefix), createdAt: now, updatedAt: now })
            .returning('*'));
        answer.paymentId = payment.id;
        const terms = await defer(payment.txnRef);
        answer.bankTransfer = {
          account: { ...app.config.bankTransfer! },
          transferReference: payment.txnRef,
          amountVnd,
          payBy: answer.holdExpiresAt,
          instructions: (terms?.instructions ?? PLAIN_TRANSFER)[language],
          instructionsLocale: language,
        };
      } else {
        const terms = (await defer())!;
        answer.payAtVenue = {
          outcome: terms.outcome === 'CONFIRMED' ? 'CONFIRMED' : 'AWAITING_APPROVAL',
          amountDueVnd: amountVnd,
          payBy: terms.payBy?.toISOString() ?? null,
          instructions: terms.instructions[language],
          instructionsLocale: language,
        };
      }
      trackAfterCommit(ctx, payable, ref.id, 'checkoutStarted', { payment_gateway: input.method, amount_vnd: amountVnd });
      return answer;
    },
    now,
  );
}
