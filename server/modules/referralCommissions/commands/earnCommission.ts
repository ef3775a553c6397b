import type { Knex } from 'knex';
import { attributedReservation, insertCommissionOnce } from '../queries.ts';

/** The commission of a reservation: the code's rule when it has one, else the partner's; on the net amount. */
export function commissionAmount(rule: { kind: string; value: number }, baseVnd: number, guests: number): number {
  return rule.kind === 'FIXED_PER_GUEST' ? rule.value * guests : Math.round((baseVnd * rule.value) / 100);
}

/**
 * Creates the reservation's commission when it is attributed, `PENDING`, inside the payment's transaction (the
 * `payment.captured` subscriber): exactly once however often it runs (`on conflict do nothing`).
 */
export async function earnCommission(trx: Knex.Transaction, reservationId: string, paymentId: string, now: Date): Promise<void> {
  const r = await attributedReservation(trx, reservationId);
  if (!r) return;
  const rule = r.codeRule ?? r.partnerRule;
  const baseVnd = Math.max(0, r.subtotalVnd - r.discountVnd);
  await insertCommissionOnce(trx, {
    partnerId: r.partnerId,
    codeId: r.codeId,
    linkId: r.linkId,
    reservationId,
    paymentId,
    baseVnd,
    amountVnd: commissionAmount(rule, baseVnd, r.guestCount),
    now,
  });
}
