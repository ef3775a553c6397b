import { payableOf } from '../../../domain/payables.ts';
import type { AppContext } from '../../../platform/context.ts';
import type { CallbackQuery } from '../../../platform/integrations/vnpay.ts';
import type { PaymentStatus } from '../models.ts';
import { vnpayPaymentByTxnRef } from '../queries.ts';
import { vnpayOf } from '../vnpay.ts';
import { auditCallback, auditParams } from './auditCallback.ts';

export interface ReturnResult {
  valid: boolean;
  gatewaySuccess: boolean;
  responseCode: string | null;
  paymentStatus: PaymentStatus | null;
  /** The payment's payable as its payer knows it (a reservation's reference and status), null when none matched. */
  payableReference: string | null;
  payableStatus: string | null;
  /** The payable's locale (where the site's return page is), null when no payment matched. */
  locale: string | null;
}

/**
 * `vnpayReturn`: the guest's browser back from VNPay. Verifies the signature (constant time, our TMN code) and
 * reports, with the payment's payable as its module shows it (`view`: a reservation's reference and status); writes
 * only its audit row (a single statement, no transaction: only the IPN changes anything).
 */
export async function vnpayReturn(app: AppContext, query: CallbackQuery): Promise<ReturnResult> {
  const knex = app.db.knex;
  const callback = vnpayOf(app).verifyCallback(query);
  const row = callback.valid && callback.txnRef ? await vnpayPaymentByTxnRef(knex, callback.txnRef) : undefined;
  const payable = row ? await payableOf(app.payables, row.payableKind).view(knex, row.payableId) : undefined;
  await auditCallback(knex, { kind: 'RETURN', paymentId: row?.id ?? null, txnRef: callback.txnRef, params: auditParams(query), valid: callback.valid, outcome: callback.valid ? (callback.responseCode ?? null) : '97' });
  return {
    valid: callback.valid,
    gatewaySuccess: callback.valid && callback.success,
    responseCode: callback.valid ? (callback.responseCode?.slice(0, 10) ?? null) : null,
    paymentStatus: row?.status ?? null,
    payableReference: payable?.reference ?? null,
    payableStatus: payable?.status ?? null,
    locale: payable?.locale ?? null,
  };
}
