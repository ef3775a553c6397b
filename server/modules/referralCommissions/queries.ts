import type { Knex } from 'knex';
import type { AnyQueryBuilder } from 'objection';
import { NotFound } from '../../platform/http/problem.ts';
import { ReferralCommission, ReferralPayout } from './models.ts';

/**
 * Reads of commissions and payout batches (issue 12), and the module's set-based statements (called from its
 * commands only): the reservation a commission is earned on (a join over the booking module's `reservations`),
 * the exactly-once commission insert (`on conflict do nothing`), the approved commissions' partners and the
 * payout's conditional claim.
 */

/** A commission as admins see it: with its reservation's reference and its code. */
export type CommissionView = ReferralCommission & { reservationReference: string; code: string | null };

/** A payout batch with its commissions' ids (in the order they were earned). */
export type PayoutView = ReferralPayout & { commissionIds: string[] };

const commissionQuery = (knex?: Knex) =>
  ReferralCommission.query(knex)
    .alias('m')
    .join('reservations as r', 'r.id', 'm.reservation_id')
    .leftJoin('referral_codes as c', 'c.id', 'm.code_id')
    .select('m.*', 'r.reference as reservation_reference', 'c.code')
    .castTo<CommissionView[]>();

export async function findCommissionOrFail(id: string): Promise<CommissionView> {
  const commission = (await commissionQuery().where('m.id', id).first()) as CommissionView | undefined;
  if (!commission) throw NotFound('No such commission.');
  return commission;
}

export async function listCommissions(f: { partnerId?: string; status?: string; from?: string; to?: string; limit: number; offset: number }) {
  const filter = (q: AnyQueryBuilder) => {
    if (f.partnerId) q.where('m.partner_id', f.partnerId);
    if (f.status) q.where('m.status', f.status);
    if (f.from) q.where('m.created_at', '>=', new Date(f.from));
    if (f.to) q.where('m.created_at', '<', new Date(f.to));
  };
  const total = await ReferralCommission.query().alias('m').modify(filter).resultSize();
  const items = await commissionQuery()
    .modify(filter)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(f.limit)
    .offset(f.offset);
  return { items, total };
}

export async function findPayoutOrFail(id: string, knex?: Knex): Promise<PayoutView> {
  const payout = await ReferralPayout.query(knex).findById(id);
  if (!payout) throw NotFound('No such payout batch.');
  const commissions = await ReferralCommission.query(knex).where('payout_id', id).orderBy(['created_at', 'id']).select('id');
  return Object.assign(payout, { commissionIds: commissions.map((c) => c.id) });
}

export async function payoutsByIds(ids: string[], knex?: Knex): Promise<PayoutView[]> {
  const payouts: PayoutView[] = [];
  for (const id of ids) payouts.push(await findPayoutOrFail(id, knex));
  return payouts;
}

export async function listPayouts(f: { partnerId?: string; limit: number; offset: number }) {
  const base = ReferralPayout.query().modify((q) => {
    if (f.partnerId) q.where('partner_id', f.partnerId);
  });
  const total = await base.clone().resultSize();
  const rows = await base.clone().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).select('id');
  return { items: await payoutsByIds(rows.map((r) => r.id)), total };
}

// ---- earning --------------------------------------------------------------------------------------------------

/** What a reservation's commission is computed from: its amounts and attribution, the partner's and the code's rules. */
export interface AttributedReservation {
  subtotalVnd: number;
  discountVnd: number;
  guestCount: number;
  partnerId: string;
  codeId: string | null;
  linkId: string | null;
  partnerRule: { kind: string; value: number };
  codeRule: { kind: string; value: number } | null;
}

/** The reservation with its partner (and code), or undefined when it is not attributed. */
export async function attributedReservation(trx: Knex, reservationId: string): Promise<AttributedReservation | undefined> {
  const r = await trx('reservations as r')
    .join('referral_partners as p', 'p.id', 'r.referral_partner_id')
    .leftJoin('referral_codes as c', 'c.id', 'r.referral_code_id')
    .where('r.id', reservationId)
    .first('r.subtotal_vnd', 'r.discount_vnd', 'r.guest_count', 'r.referral_partner_id', 'r.referral_code_id', 'r.referral_link_id', 'p.commission_kind', 'p.commission_value', 'c.commission_kind as code_kind', 'c.commission_value as code_value');
  if (!r) return undefined;
  return {
    subtotalVnd: r.subtotal_vnd,
    discountVnd: r.discount_vnd,
    guestCount: r.guest_count,
    partnerId: r.referral_partner_id,
    codeId: r.referral_code_id,
    linkId: r.referral_link_id,
    partnerRule: { kind: r.commission_kind, value: r.commission_value },
    codeRule: r.code_kind && r.code_value !== null ? { kind: r.code_kind, value: r.code_value } : null,
  };
}

/** Inserts the reservation's `PENDING` commission unless it has one (`on conflict (reservation_id) do nothing`). */
export async function insertCommissionOnce(
  trx: Knex,
  c: { partnerId: string; codeId: string | null; linkId: string | null; reservationId: string; paymentId: string; baseVnd: number; amountVnd: number; now: Date },
): Promise<void> {
  await trx.raw(
    `insert into referral_commissions (partner_id, code_id, link_id, reservation_id, payment_id, base_vnd, amount_vnd, status, status_changed_at, created_at)
     values (?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?) on conflict (reservation_id) do nothing`,
    [c.partnerId, c.codeId, c.linkId, c.reservationId, c.paymentId, c.baseVnd, c.amountVnd, c.now, c.now],
  );
}

// ---- paying out -----------------------------------------------------------------------------------------------

/** The partners with APPROVED commissions not yet in a batch (only `partnerId` when given), in id order. */
export async function partnersToPay(trx: Knex, partnerId: string | undefined): Promise<string[]> {
  const rows: Array<{ partner_id: string }> = await trx('referral_commissions')
    .where({ status: 'APPROVED' })
    .whereNull('payout_id')
    .modify((q) => {
      if (partnerId) q.where('partner_id', partnerId);
    })
    .distinct('partner_id')
    .orderBy('partner_id');
  return rows.map((r) => r.partner_id);
}

/**
 * Claims the partner's APPROVED commissions not yet in a batch for `payoutId` (they become PAID), in one conditional
 * update: a concurrent claim waits on the rows this one updated, re-reads them as PAID and skips them. Their amounts.
 */
export async function claimApproved(trx: Knex, partnerId: string, payoutId: string, now: Date): Promise<number[]> {
  const claimed: Array<{ amount_vnd: number }> = await trx('referral_commissions')
    .where({ partner_id: partnerId, status: 'APPROVED' })
    .whereNull('payout_id')
    .update({ status: 'PAID', payout_id: payoutId, status_changed_at: now })
    .returning('amount_vnd');
  return claimed.map((c) => c.amount_vnd);
}
