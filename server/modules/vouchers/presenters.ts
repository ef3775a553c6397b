import { iso } from '../presenting.ts';
import { effectiveVoucherStatus, type VoucherRedemptionRow, type VoucherRow } from './service.ts';

/** A voucher as staff see it (allow-list); the status is the effective one (past its expiry = EXPIRED). */
export function presentVoucher(row: VoucherRow, now: Date) {
  return {
    id: row.id,
    code: row.code,
    initialValueVnd: row.initial_value_vnd,
    remainingValueVnd: row.remaining_value_vnd,
    expiresAt: iso(row.expires_at)!,
    status: effectiveVoucherStatus(row, now),
    recipientName: row.recipient_name,
    recipientEmail: row.recipient_email,
    note: row.note,
    expiredAt: iso(row.expired_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

export function presentVoucherRedemption(row: VoucherRedemptionRow) {
  return {
    id: row.id,
    reservationId: row.reservation_id,
    reservationReference: row.reservation_reference,
    reservationStatus: row.reservation_status,
    amountVnd: row.amount_vnd,
    createdAt: iso(row.created_at)!,
    releasedAt: iso(row.released_at),
  };
}
