import type { Knex } from 'knex';
import { NotFound } from '../../platform/http/problem.ts';
import { tokenMatches } from '../../platform/auth/tokens.ts';
import { likeContaining } from '../shows/index.ts';
import { GiftVoucherOrder, type GiftVoucherOrderStatus } from './models.ts';
import { normalizeOrderReference } from './rules.ts';

/** Gift-voucher orders (issue 36 §1): the reads, and the lock the payable and the commands take. */

export const NoSuchOrder = () => NotFound('No such gift-voucher order.');

/** A digest no token has: an unknown reference costs the same constant-time compare as a known one. */
const DUMMY_HASH = Buffer.alloc(32);

/** The order of `reference` when `token` opens it; undefined for an unknown reference, a wrong or a missing token alike. */
export async function orderOpenedByToken(knex: Knex, reference: string, token: string | undefined): Promise<GiftVoucherOrder | undefined> {
  const order = await GiftVoucherOrder.query(knex).findOne({ reference: normalizeOrderReference(reference) });
  const ok = tokenMatches(token, order ? Buffer.from(order.accessTokenHash) : DUMMY_HASH);
  return order && ok ? order : undefined;
}

/** The order, locked for the caller's transaction; undefined when there is none. */
export async function lockOrder(trx: Knex.Transaction, id: string): Promise<GiftVoucherOrder | undefined> {
  return GiftVoucherOrder.query(trx).findById(id).forUpdate();
}

/** An order as staff list it, with its voucher's code and what is left on it. */
export interface OrderListRow {
  order: GiftVoucherOrder;
  voucherCode: string | null;
  voucherRemainingVnd: number | null;
}

export async function listOrders(knex: Knex, filters: { status?: GiftVoucherOrderStatus; q?: string; limit: number; offset: number }, now: Date): Promise<{ items: OrderListRow[]; total: number }> {
  const base = GiftVoucherOrder.query(knex);
  if (filters.status === 'EXPIRED') base.where((w) => w.where('status', 'EXPIRED').orWhere((p) => p.where('status', 'PENDING').andWhere('pay_by', '<=', now)));
  else if (filters.status === 'PENDING') base.where('status', 'PENDING').andWhere('pay_by', '>', now);
  else if (filters.status) base.where('status', filters.status);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    base.where((w) =>
      w.where('reference', 'ilike', pattern).orWhere('buyer_name', 'ilike', pattern).orWhere('buyer_email', 'ilike', pattern).orWhere('recipient_name', 'ilike', pattern).orWhere('recipient_email', 'ilike', pattern),
    );
  }
  const [orders, total] = await Promise.all([
    base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'asc' }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize(),
  ]);
  const vouchers = await voucherFacts(knex, orders.map((order) => order.voucherId).filter((id): id is string => id !== null));
  return { items: orders.map((order) => ({ order, ...(vouchers.get(order.voucherId ?? '') ?? { voucherCode: null, voucherRemainingVnd: null }) })), total };
}

/** The vouchers' codes and balances (the vouchers module's table, read in one query). */
export async function voucherFacts(knex: Knex, ids: string[]): Promise<Map<string, { voucherCode: string; voucherRemainingVnd: number }>> {
  if (ids.length === 0) return new Map();
  const rows: Array<{ id: string; code: string; remaining_value_vnd: number }> = await knex('vouchers').whereIn('id', ids).select('id', 'code', 'remaining_value_vnd');
  return new Map(rows.map((row) => [row.id, { voucherCode: row.code, voucherRemainingVnd: Number(row.remaining_value_vnd) }]));
}
