import type { Knex } from 'knex';
import { NotFound } from '../../platform/http/problem.ts';
import { likeContaining } from '../shows/index.ts';
import type { ReservationStatus } from '../booking/index.ts';
import { effectiveVoucherStatus, normalizeVoucherCode } from './codes.ts';
import { Voucher, type VoucherStatus } from './models.ts';

/**
 * Vouchers (issue 13; DOMAIN.md "Guests and CRM"), Staff+: a stored value in VND that pays part or all of a
 * booking (./adjustment.ts takes it at hold time). ACTIVE → REDEEMED (nothing left) or EXPIRED; delete expires
 * the voucher and zeroes what is left. A public balance check by code reveals only the remaining value and the
 * expiry, rate-limited per address. The reads, and the set-based statements the commands (./commands/) run.
 */

/** A redemption with its reservation's reference and status (a join over the booking module's table). */
export interface VoucherRedemptionView {
  id: string;
  reservationId: string;
  reservationReference: string;
  reservationStatus: ReservationStatus;
  amountVnd: number;
  createdAt: Date;
  releasedAt: Date | null;
}

export const NoSuchVoucher = () => NotFound('No such voucher.');

export async function findVoucherOrFail(id: string, trx?: Knex.Transaction, options: { forUpdate?: boolean } = {}): Promise<Voucher> {
  const query = Voucher.query(trx).findById(id);
  if (options.forUpdate) query.forUpdate();
  const voucher = await query;
  if (!voucher) throw NoSuchVoucher();
  return voucher;
}

export async function voucherRedemptions(knex: Knex, voucherId: string): Promise<VoucherRedemptionView[]> {
  const rows = await knex('voucher_redemptions as v')
    .join('reservations as r', 'r.id', 'v.reservation_id')
    .where('v.voucher_id', voucherId)
    .orderBy([{ column: 'v.created_at', order: 'desc' }, { column: 'v.id', order: 'asc' }])
    .select('v.id', 'v.reservation_id', 'r.reference as reservation_reference', 'r.status as reservation_status', 'v.amount_vnd', 'v.created_at', 'v.released_at');
  return rows.map((row) => ({
    id: row.id,
    reservationId: row.reservation_id,
    reservationReference: row.reservation_reference,
    reservationStatus: row.reservation_status,
    amountVnd: row.amount_vnd,
    createdAt: row.created_at,
    releasedAt: row.released_at,
  }));
}

export async function listVouchers(filters: { status?: VoucherStatus; q?: string; limit: number; offset: number }, now = new Date()): Promise<{ items: Voucher[]; total: number }> {
  const base = Voucher.query();
  if (filters.status === 'EXPIRED') base.where((w) => w.where('status', 'EXPIRED').orWhere((a) => a.where('status', 'ACTIVE').andWhere('expires_at', '<=', now)));
  else if (filters.status === 'ACTIVE') base.where('status', 'ACTIVE').andWhere('expires_at', '>', now);
  else if (filters.status) base.where('status', filters.status);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    base.where((w) => w.where('code', 'ilike', pattern).orWhere('recipient_name', 'ilike', pattern).orWhere('recipient_email', 'ilike', pattern));
  }
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'asc' }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize(),
  ]);
  return { items, total };
}

/** The public balance: the remaining value and expiry of a code, or undefined (unknown). */
export async function voucherBalance(code: string, now = new Date()) {
  const voucher = await Voucher.query().findOne({ code: normalizeVoucherCode(code) });
  if (!voucher) return undefined;
  const status = effectiveVoucherStatus(voucher, now);
  return { remainingValueVnd: status === 'EXPIRED' ? 0 : voucher.remainingValueVnd, expiresAt: new Date(voucher.expiresAt).toISOString() };
}

/** The voucher `code` names (normalized by the caller), locked for the hold's transaction. */
export async function lockVoucherByCode(trx: Knex.Transaction, code: string): Promise<Voucher | undefined> {
  return Voucher.query(trx).findOne({ code }).forUpdate();
}

/** The voucher credit a reservation got (the booking module's table; it exports no model). */
export async function reservationVoucherCredit(trx: Knex.Transaction, reservationId: string): Promise<number> {
  const reservation = await trx('reservations').where({ id: reservationId }).first('voucher_credit_vnd');
  return Number(reservation.voucher_credit_vnd);
}

/** Takes `amount` off a live voucher that has it, REDEEMED when nothing is left: one conditional update (true when taken). Commands only. */
export async function takeVoucherValue(trx: Knex.Transaction, voucherId: string, amount: number, now: Date): Promise<boolean> {
  const taken = await trx('vouchers')
    .where({ id: voucherId, status: 'ACTIVE' })
    .andWhere('expires_at', '>', now)
    .andWhere('remaining_value_vnd', '>=', amount)
    .update({
      remaining_value_vnd: trx.raw('remaining_value_vnd - ?', [amount]),
      status: trx.raw("case when remaining_value_vnd - ? = 0 then 'REDEEMED' else 'ACTIVE' end", [amount]),
      updated_at: now,
    });
  return taken > 0;
}

/** Marks the live redemptions of these reservations released; answers each one's voucher and amount. Commands only. */
export async function markRedemptionsReleased(trx: Knex.Transaction, reservationIds: string[], now: Date): Promise<Array<{ voucherId: string; amountVnd: number }>> {
  const released: Array<{ voucher_id: string; amount_vnd: number }> = await trx('voucher_redemptions')
    .whereIn('reservation_id', reservationIds)
    .whereNull('released_at')
    .update({ released_at: now })
    .returning(['voucher_id', 'amount_vnd']);
  return released.map((row) => ({ voucherId: row.voucher_id, amountVnd: Number(row.amount_vnd) }));
}

/** Gives `amount` back to a voucher (never above its initial value; not to a deleted one). Commands only. */
export async function giveVoucherValueBack(trx: Knex.Transaction, voucherId: string, amount: number, now: Date): Promise<void> {
  await trx('vouchers')
    .where({ id: voucherId })
    .whereNot('status', 'EXPIRED')
    .update({ remaining_value_vnd: trx.raw('least(remaining_value_vnd + ?, initial_value_vnd)', [amount]), status: 'ACTIVE', updated_at: now });
}

/** The live (unreleased) redemption of a reservation, with what is left on its voucher; undefined when it has none. */
export async function liveRedemption(trx: Knex.Transaction, reservationId: string): Promise<{ voucherId: string; amountVnd: number; remainingVnd: number } | undefined> {
  const row = await trx('voucher_redemptions as r')
    .join('vouchers as v', 'v.id', 'r.voucher_id')
    .where('r.reservation_id', reservationId)
    .whereNull('r.released_at')
    .first('r.voucher_id', 'r.amount_vnd', 'v.remaining_value_vnd');
  return row ? { voucherId: row.voucher_id, amountVnd: Number(row.amount_vnd), remainingVnd: Number(row.remaining_value_vnd) } : undefined;
}

/** Inserts a voucher unless its code is taken (`on conflict do nothing`): its id, or undefined. Commands only. */
export async function insertVoucherUnlessCodeTaken(
  trx: Knex.Transaction,
  voucher: { code: string; valueVnd: number; expiresAt: Date; recipientName: string | null; recipientEmail: string | null; note: string | null; createdBy: string | null },
  now: Date,
): Promise<string | undefined> {
  const rows: Array<{ id: string }> = await trx('vouchers')
    .insert({
      code: voucher.code,
      initial_value_vnd: voucher.valueVnd,
      remaining_value_vnd: voucher.valueVnd,
      expires_at: voucher.expiresAt,
      recipient_name: voucher.recipientName,
      recipient_email: voucher.recipientEmail,
      note: voucher.note,
      created_by: voucher.createdBy,
      created_at: now,
      updated_at: now,
    })
    .onConflict('code')
    .ignore()
    .returning(['id']);
  return rows[0]?.id;
}

/**
 * Voids a voucher nobody has used (ACTIVE, its whole value left, no redemption at all): EXPIRED with nothing left,
 * one conditional update. True when voided. Commands only.
 */
export async function voidUnusedVoucher(trx: Knex.Transaction, voucherId: string, now: Date): Promise<boolean> {
  const voided = await trx('vouchers')
    .where({ id: voucherId, status: 'ACTIVE' })
    .andWhereRaw('remaining_value_vnd = initial_value_vnd')
    .whereNotExists(trx('voucher_redemptions').where('voucher_id', voucherId).select(trx.raw('1')))
    .update({ status: 'EXPIRED', remaining_value_vnd: 0, expired_at: now, updated_at: now });
  return voided > 0;
}
