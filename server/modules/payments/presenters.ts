import { iso } from '../presenting.ts';
import type { PaymentListRow, RefundRow } from './service.ts';

/** Allow-lists of the payments module (admin routes only: gateway ids are for staff, never for guests). */

export function presentPayment(row: PaymentListRow) {
  return {
    id: row.id,
    reservationId: row.reservation_id,
    reservationReference: row.reservation_reference,
    gateway: row.gateway,
    status: row.status,
    amountVnd: row.amount_vnd,
    refundedVnd: row.refunded_vnd,
    txnRef: row.txn_ref,
    gatewayTransactionId: row.gateway_transaction_id,
    bankCode: row.bank_code,
    cardType: row.card_type,
    gatewayResponseCode: row.gateway_response_code,
    gatewayPaidAt: iso(row.gateway_paid_at),
    recordedBy: row.recorded_by,
    note: row.note,
    expiresAt: iso(row.expires_at),
    succeededAt: iso(row.succeeded_at),
    failedAt: iso(row.failed_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

export function presentRefund(row: RefundRow) {
  return {
    id: row.id,
    paymentId: row.payment_id,
    amountVnd: row.amount_vnd,
    reason: row.reason,
    status: row.status,
    requestedBy: row.requested_by,
    gatewayRefundId: row.gateway_refund_id,
    gatewayResponseCode: row.gateway_response_code,
    failureReason: row.failure_reason,
    attempts: row.attempts,
    completedAt: iso(row.completed_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

export function presentCallback(row: { kind: 'IPN' | 'RETURN'; signature_valid: boolean; outcome: string | null; received_at: Date }) {
  return { kind: row.kind, signatureValid: row.signature_valid, outcome: row.outcome, receivedAt: iso(row.received_at)! };
}
