import { iso } from '../presenting.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { CommissionView, PayoutView } from './queries.ts';

export function presentCommission(commission: CommissionView): Schema<'Commission'> {
  return {
    id: commission.id,
    partnerId: commission.partnerId,
    codeId: commission.codeId,
    code: commission.code ?? null,
    linkId: commission.linkId,
    reservationId: commission.reservationId,
    reservationReference: commission.reservationReference,
    baseVnd: commission.baseVnd,
    amountVnd: commission.amountVnd,
    status: commission.status,
    payoutId: commission.payoutId,
    voidReason: commission.voidReason,
    statusChangedAt: iso(commission.statusChangedAt)!,
    createdAt: iso(commission.createdAt)!,
  };
}

export function presentPayout(payout: PayoutView): Schema<'Payout'> {
  return {
    id: payout.id,
    reference: payout.reference,
    partnerId: payout.partnerId,
    totalVnd: payout.totalVnd,
    commissionCount: payout.commissionCount,
    commissionIds: payout.commissionIds,
    note: payout.note,
    createdBy: payout.createdBy,
    createdAt: iso(payout.createdAt)!,
  };
}
