import { iso } from '../presenting.ts';
import type { CommissionRow } from './service.ts';
import type { PayoutRow } from './payouts.ts';

export function presentCommission(row: CommissionRow) {
  return {
    id: row.id,
    partnerId: row.partner_id,
    codeId: row.code_id,
    code: row.code ?? null,
    linkId: row.link_id,
    reservationId: row.reservation_id,
    reservationReference: row.reservation_reference,
    baseVnd: row.base_vnd,
    amountVnd: row.amount_vnd,
    status: row.status,
    payoutId: row.payout_id,
    voidReason: row.void_reason,
    statusChangedAt: iso(row.status_changed_at)!,
    createdAt: iso(row.created_at)!,
  };
}

export function presentPayout(row: PayoutRow) {
  return {
    id: row.id,
    reference: row.reference,
    partnerId: row.partner_id,
    totalVnd: row.total_vnd,
    commissionCount: row.commission_count,
    commissionIds: row.commission_ids,
    note: row.note,
    createdBy: row.created_by,
    createdAt: iso(row.created_at)!,
  };
}
