import { BaseModel } from '../../platform/db/model.ts';

export const GIFT_VOUCHER_ORDER_STATUSES = ['PENDING', 'PAID', 'REFUNDED', 'EXPIRED'] as const;
export type GiftVoucherOrderStatus = (typeof GIFT_VOUCHER_ORDER_STATUSES)[number];

/**
 * Table `gift_voucher_orders` (issue 36 §1): a buyer's order of a gift voucher, a payable of its own
 * (`voucher_order`, ./payable.ts). `accessTokenHash`: the SHA-256 of the buyer's token, never the token.
 */
export class GiftVoucherOrder extends BaseModel {
  static override tableName = 'gift_voucher_orders';
  reference!: string;
  accessTokenHash!: Buffer;
  status!: GiftVoucherOrderStatus;
  amountVnd!: number;
  buyerName!: string;
  buyerEmail!: string;
  recipientName!: string;
  recipientEmail!: string;
  message!: string | null;
  /** `YYYY-MM-DD`, the venue's calendar. */
  deliveryDate!: string;
  locale!: string;
  voucherId!: string | null;
  payBy!: Date;
  paidAt!: Date | null;
  deliveredAt!: Date | null;
  refundedAt!: Date | null;
  refundedBy!: string | null;
}
