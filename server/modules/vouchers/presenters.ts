import { iso } from '../presenting.ts';
import type { Schema } from '../../platform/http/handler.ts';
import { effectiveVoucherStatus } from './codes.ts';
import type { Voucher } from './models.ts';
import type { VoucherRedemptionView } from './queries.ts';

/** A voucher as staff see it (allow-list); the status is the effective one (past its expiry = EXPIRED). */
export function presentVoucher(voucher: Voucher, now: Date): Schema<'Voucher'> {
  return {
    id: voucher.id,
    code: voucher.code,
    initialValueVnd: voucher.initialValueVnd,
    remainingValueVnd: voucher.remainingValueVnd,
    expiresAt: iso(voucher.expiresAt)!,
    status: effectiveVoucherStatus(voucher, now),
    recipientName: voucher.recipientName,
    recipientEmail: voucher.recipientEmail,
    note: voucher.note,
    expiredAt: iso(voucher.expiredAt),
    createdAt: iso(voucher.createdAt)!,
    updatedAt: iso(voucher.updatedAt)!,
  };
}

export function presentVoucherRedemption(redemption: VoucherRedemptionView): Schema<'VoucherRedemption'> {
  return {
    id: redemption.id,
    reservationId: redemption.reservationId,
    reservationReference: redemption.reservationReference,
    reservationStatus: redemption.reservationStatus,
    amountVnd: redemption.amountVnd,
    createdAt: iso(redemption.createdAt)!,
    releasedAt: iso(redemption.releasedAt),
  };
}
