import type { Knex } from 'knex';
import { Conflict, NotFound } from '../../platform/http/problem.ts';
import { subscriber } from '../../domain/events.ts';

/**
 * Commissions (issue 12): one per attributed reservation (a unique index: the payment hook's insert is
 * exactly-once however often it runs), created `PENDING` when the reservation's payment succeeds, inside the
 * payment's transaction. Settlement: `PENDING` ⇄ `APPROVED` → `PAID` (payout batches only); `VOID` when the
 * booking is cancelled or fully refunded before payout, or by an admin. `PAID` and `VOID` are final.
 */
export const COMMISSION_STATUSES = ['PENDING', 'APPROVED', 'PAID', 'VOID'] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

/** Moves an admin may make (PAID comes from a payout batch only). */
const ADMIN_MOVES: Record<CommissionStatus, CommissionStatus[]> = { PENDING: ['APPROVED', 'VOID'], APPROVED: ['PENDING', 'VOID'], PAID: [], VOID: [] };

export interface CommissionRow {
  id: string;
  partner_id: string;
  code_id: string | null;
  code: string | null;
  link_id: string | null;
  reservation_id: string;
  reservation_reference: string;
  payment_id: string | null;
  base_vnd: number;
  amount_vnd: number;
  status: CommissionStatus;
  payout_id: string | null;
  void_reason: string | null;
  status_changed_at: Date;
  created_at: Date;
}

/** The commission of a reservation: the code's rule when it has one, else the partner's; on the net amount. */
export function commissionAmount(rule: { kind: string; value: number }, baseVnd: number, guests: number): number {
  return rule.kind === 'FIXED_PER_GUEST' ? rule.value * guests : Math.round((baseVnd * rule.value) / 100);
}

/** Creates the reservation's commission when it is attributed (exactly once: `on conflict do nothing`). */
export async function earnCommission(trx: Knex.Transaction, reservationId: string, paymentId: string, now: Date): Promise<void> {
  const r = await trx('reservations as r')
    .join('referral_partners as p', 'p.id', 'r.referral_partner_id')
    .leftJoin('referral_codes as c', 'c.id', 'r.referral_code_id')
    .where('r.id', reservationId)
    .first('r.subtotal_vnd', 'r.discount_vnd', 'r.guest_count', 'r.referral_partner_id', 'r.referral_code_id', 'r.referral_link_id', 'p.commission_kind', 'p.commission_value', 'c.commission_kind as code_kind', 'c.commission_value as code_value');
  if (!r) return;
  const rule = r.code_kind && r.code_value !== null ? { kind: r.code_kind, value: r.code_value } : { kind: r.commission_kind, value: r.commission_value };
  const baseVnd = Math.max(0, r.subtotal_vnd - r.discount_vnd);
  await trx.raw(
    `insert into referral_commissions (partner_id, code_id, link_id, reservation_id, payment_id, base_vnd, amount_vnd, status, status_changed_at, created_at)
     values (?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?) on conflict (reservation_id) do nothing`,
    [r.referral_partner_id, r.referral_code_id, r.referral_link_id, reservationId, paymentId, baseVnd, commissionAmount(rule, baseVnd, r.guest_count), now, now],
  );
}

/** Voids the reservation's commission unless it has been paid out. */
export async function voidCommission(trx: Knex.Transaction, reservationId: string, reason: string, now: Date): Promise<void> {
  await trx('referral_commissions').where({ reservation_id: reservationId }).whereIn('status', ['PENDING', 'APPROVED']).update({ status: 'VOID', void_reason: reason, status_changed_at: now });
}

/** What a referral earns and loses when its booking's money moves (declared in the module's record). */
export const subscribers = [
  subscriber({
    name: 'referrals.earn-commission',
    event: 'payment.captured',
    phase: 'in-transaction',
    order: 20,
    handle: ({ reservationId, paymentId }, ctx) => earnCommission(ctx.trx, reservationId, paymentId, ctx.now),
  }),
  subscriber({
    name: 'referrals.void-on-refund',
    event: 'payment.refunded',
    phase: 'in-transaction',
    order: 10,
    handle: ({ reservationId }, ctx) => voidCommission(ctx.trx, reservationId, 'refunded', ctx.now),
  }),
  subscriber({
    name: 'referrals.void-on-cancel',
    event: 'reservation.cancelled',
    phase: 'in-transaction',
    order: 50,
    handle: ({ reservationId }, ctx) => voidCommission(ctx.trx, reservationId, 'cancelled', ctx.now),
  }),
];

// ---- reading and settling ------------------------------------------------------------------------------------

const commissionQuery = (knex: Knex) =>
  knex('referral_commissions as m').join('reservations as r', 'r.id', 'm.reservation_id').leftJoin('referral_codes as c', 'c.id', 'm.code_id').select('m.*', 'r.reference as reservation_reference', 'c.code');

export async function findCommissionOrFail(knex: Knex, id: string): Promise<CommissionRow> {
  const row = await commissionQuery(knex).where('m.id', id).first();
  if (!row) throw NotFound('No such commission.');
  return row;
}

export async function listCommissions(knex: Knex, f: { partnerId?: string; status?: string; from?: string; to?: string; limit: number; offset: number }) {
  const filter = (q: Knex.QueryBuilder) => {
    if (f.partnerId) q.where('m.partner_id', f.partnerId);
    if (f.status) q.where('m.status', f.status);
    if (f.from) q.where('m.created_at', '>=', new Date(f.from));
    if (f.to) q.where('m.created_at', '<', new Date(f.to));
  };
  const [{ count }] = await knex('referral_commissions as m').modify(filter).count<Array<{ count: string }>>('* as count');
  const items: CommissionRow[] = await commissionQuery(knex)
    .modify(filter)
    .orderBy([{ column: 'm.created_at', order: 'desc' }, { column: 'm.id', order: 'desc' }])
    .limit(f.limit)
    .offset(f.offset);
  return { items, total: Number(count) };
}

export async function setCommissionStatus(knex: Knex, id: string, to: CommissionStatus, reason: string | undefined, now = new Date()): Promise<CommissionRow> {
  await knex.transaction(async (trx) => {
    const row = await trx('referral_commissions').where({ id }).forUpdate().first('status');
    if (!row) throw NotFound('No such commission.');
    if (row.status === to) return;
    if (!ADMIN_MOVES[row.status as CommissionStatus].includes(to)) throw Conflict('illegal_transition', `A ${row.status} commission cannot become ${to}.`);
    await trx('referral_commissions')
      .where({ id })
      .update({ status: to, status_changed_at: now, void_reason: to === 'VOID' ? (reason ?? 'voided by an admin') : null });
  });
  return findCommissionOrFail(knex, id);
}
