import { BaseModel, RecordModel } from '../../platform/db/model.ts';

/** Table `payments`. */
export class Payment extends BaseModel {
  static override tableName = 'payments';
  reservationId!: string;
  gateway!: string;
  status!: string;
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

/** Table `payment_callbacks`. */
export class PaymentCallback extends RecordModel {
  static override tableName = 'payment_callbacks';
  static override jsonAttributes = ['params'];
  id!: string;
  gateway!: string;
  kind!: string;
  paymentId!: string | null;
  txnRef!: string | null;
  params!: unknown;
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
  status!: string;
  requestedBy!: string | null;
  gatewayRefundId!: string | null;
  gatewayResponseCode!: string | null;
  gatewayResponse!: unknown | null;
  failureReason!: string | null;
  completedAt!: Date | null;
  processingUntil!: Date | null;
  attempts!: number;
}
