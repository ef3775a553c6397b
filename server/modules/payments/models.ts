import { BaseModel, RecordModel } from '../../platform/db/model.ts';

export type CheckoutMethod = 'VNPAY' | 'BANK_TRANSFER' | 'PAY_AT_VENUE';
export type Gateway = 'VNPAY' | 'BANK_TRANSFER' | 'CASH' | 'CARD_ON_SITE';
export type PaymentStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
export type RefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

/** Statuses of a payment whose money was received (part of it may have been given back). */
export const PAID_STATUSES: readonly PaymentStatus[] = ['SUCCEEDED', 'PARTIALLY_REFUNDED'];

/** On-site gateways: refunds are money staff hand back, never a gateway call. */
export const ON_SITE_GATEWAYS: readonly Gateway[] = ['BANK_TRANSFER', 'CASH', 'CARD_ON_SITE'];

/** Table `payments`. */
export class Payment extends BaseModel {
  static override tableName = 'payments';
  /** What the payment settles (server/domain/payables.ts): its kind and id. */
  payableKind!: string;
  payableId!: string;
  /** The reservation it is for, when its payable is a reservation's (the admin routes' `reservationId`); else null. */
  reservationId!: string | null;
  gateway!: Gateway;
  status!: PaymentStatus;
  amountVnd!: number;
  refundedVnd!: number;
  txnRef!: string;
  gatewayTransactionId!: string | null;
  bankCode!: string | null;
  cardType!: string | null;
  gatewayResponseCode!: string | null;
  gatewayPaidAt!: Date | null;
  recordedBy!: string | null;
  note!: string | null;
  expiresAt!: Date | null;
  succeededAt!: Date | null;
  failedAt!: Date | null;
}

/** A payment with its reservation's reference (the admin routes' row: `reservations.reference` joined in queries.ts). */
export type PaymentWithReference = Payment & { reservationId: string; reservationReference: string };

/** Table `payment_callbacks`. */
export class PaymentCallback extends RecordModel {
  static override tableName = 'payment_callbacks';
  static override jsonAttributes = ['params'];
  id!: string;
  gateway!: string;
  kind!: 'IPN' | 'RETURN';
  paymentId!: string | null;
  txnRef!: string | null;
  params!: Record<string, string>;
  signatureValid!: boolean;
  outcome!: string | null;
  receivedAt!: Date;
}

/** Table `refunds`. */
export class Refund extends BaseModel {
  static override tableName = 'refunds';
  static override jsonAttributes = ['gatewayResponse'];
  paymentId!: string;
  amountVnd!: number;
  reason!: string | null;
  status!: RefundStatus;
  requestedBy!: string | null;
  gatewayRefundId!: string | null;
  gatewayResponseCode!: string | null;
  gatewayResponse!: unknown | null;
  failureReason!: string | null;
  completedAt!: Date | null;
  processingUntil!: Date | null;
  attempts!: number;
}
