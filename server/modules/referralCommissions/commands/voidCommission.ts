import type { Knex } from 'knex';
import { ReferralCommission } from '../models.ts';

/**
 * Voids the reservation's commission unless it has been paid out, in the transaction of the refund or the
 * cancellation (the `payment.refunded` and `reservation.cancelled` subscribers).
 */
export async function voidCommission(trx: Knex.Transaction, reservationId: string, reason: string, now: Date): Promise<void> {
  await ReferralCommission.query(trx)
    .where('reservation_id', reservationId)
    .whereIn('status', ['PENDING', 'APPROVED'])
    .patch({ status: 'VOID', voidReason: reason, statusChangedAt: now });
}
