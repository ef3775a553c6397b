import type { AppContext } from '../../platform/context.ts';
import { payableOf, type PayableRef } from '../../domain/payables.ts';
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

export interface CheckoutAnswer {
  method: CheckoutMethod;
  reference: string;
  amountVnd: number;
  holdExpiresAt: string | null;
  paymentId: string | null;
  vnpay?: { paymentUrl: string; txnRef: string; expiresAt: string };
  bankTransfer?: { account: { accountName: string; accountNumber: string; bankName: string }; transferReference: string; amountVnd: number };
  payAtVenue?: { instructions: string };
}


/**
 * The payer starts checkout for a payable the caller opened (a reservation: its guest token, checked by the
 * handler): only a payable that can be paid now (`refusal('checkout')`: a reservation HELD and unexpired) with
 * something due, and only an enabled method. See openapi/paths/payments.yaml `startCheckout`. One transaction (the
 * payable locked by its module); `checkout started` after the commit. `baseUrl` is what VNPay's return URL (and the
 * development sandbox's pay page) are built on: `callbackBaseUrl` of the request.
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
      const methods = methodsFor(payable, await enabledMethods(ctx.trx, app));
      if (!methods.includes(input.method)) {
        const list = methods.length ? methods.join(', ') : 'none';
        throw Unprocessable('payment_method_unavailable', `${input.method} is not available; enabled methods: ${list}.`, [
          { path: 'body/method', message: `is not enabled; enabled methods: ${list}`, code: 'payment_method_unavailable' },
        ]);
      }
      const amountVnd = row.totalVnd - (await netPaid(ctx.trx, ref));
      if (amountVnd <= 0) throw Conflict('nothing_to_pay', `Nothing is due on this ${payable.noun}.`);
      const payBy = row.payBy;
      const answer: CheckoutAnswer = { method: input.method, reference: row.reference, amountVnd, holdExpiresAt: payBy?.toISOString() ?? null, paymentId: null };
      const owner = { payableKind: ref.kind, payableId: ref.id, reservationId: row.reservationId };

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
        answer.bankTransfer = { account: { ...app.config.bankTransfer! }, transferReference: payment.txnRef, amountVnd };
      } else {
        const language = (row.locale ?? app.config.defaultLocale).startsWith('vi') ? 'vi' : 'en';
        answer.payAtVenue = { instructions: payable.payAtVenue![language] };
      }
      trackAfterCommit(ctx, payable, ref.id, 'checkoutStarted', { payment_gateway: input.method, amount_vnd: amountVnd });
      return answer;
    },
    now,
  );
}
