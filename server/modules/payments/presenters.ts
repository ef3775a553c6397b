import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';
import type { ReturnResult } from './commands/vnpayReturn.ts';
import type { PaymentCallback, PaymentWithReference, Refund } from './models.ts';

/** Allow-lists of the payments module (admin routes only: gateway ids are for staff, never for guests). */

export function presentPayment(payment: PaymentWithReference): Schema<'Payment'> {
  return {
    id: payment.id,
    reservationId: payment.reservationId,
    reservationReference: payment.reservationReference,
    gateway: payment.gateway,
    status: payment.status,
    amountVnd: payment.amountVnd,
    refundedVnd: payment.refundedVnd,
    txnRef: payment.txnRef,
    gatewayTransactionId: payment.gatewayTransactionId,
    bankCode: payment.bankCode,
    cardType: payment.cardType,
    gatewayResponseCode: payment.gatewayResponseCode,
    gatewayPaidAt: iso(payment.gatewayPaidAt),
    recordedBy: payment.recordedBy,
    note: payment.note,
    expiresAt: iso(payment.expiresAt),
    succeededAt: iso(payment.succeededAt),
    failedAt: iso(payment.failedAt),
    createdAt: iso(payment.createdAt)!,
    updatedAt: iso(payment.updatedAt)!,
  };
}

export function presentRefund(refund: Refund): Schema<'Refund'> {
  return {
    id: refund.id,
    paymentId: refund.paymentId,
    amountVnd: refund.amountVnd,
    reason: refund.reason,
    status: refund.status,
    requestedBy: refund.requestedBy,
    gatewayRefundId: refund.gatewayRefundId,
    gatewayResponseCode: refund.gatewayResponseCode,
    failureReason: refund.failureReason,
    attempts: refund.attempts,
    completedAt: iso(refund.completedAt),
    createdAt: iso(refund.createdAt)!,
    updatedAt: iso(refund.updatedAt)!,
  };
}

export function presentCallback(callback: Pick<PaymentCallback, 'kind' | 'signatureValid' | 'outcome' | 'receivedAt'>): Schema<'PaymentCallback'> {
  return { kind: callback.kind, signatureValid: callback.signatureValid, outcome: callback.outcome, receivedAt: iso(callback.receivedAt)! };
}

/**
 * The browser return's verdict as the public site renders it (the payable's locale only routes the redirect). The
 * contract names the payable's reference and status as a reservation's (the only payable with a public return
 * page so far).
 */
export function presentReturn(result: ReturnResult): Schema<'VnpayReturnResult'> {
  return {
    valid: result.valid,
    gatewaySuccess: result.gatewaySuccess,
    responseCode: result.responseCode,
    paymentStatus: result.paymentStatus,
    reservationReference: result.payableReference,
    reservationStatus: result.payableStatus as Schema<'VnpayReturnResult'>['reservationStatus'],
  };
}
