import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import type { AppContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/http/rateLimit.ts';
import { Conflict, NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { isUniqueViolation } from '../accounts/index.ts';
import { likeContaining } from '../shows/index.ts';
import type { ReservationStatus } from '../booking/index.ts';

/**
 * Vouchers (issue 13; DOMAIN.md "Guests and CRM"), Staff+: a stored value in VND that pays part or all of a
 * booking (./adjustment.ts takes it at hold time). ACTIVE → REDEEMED (nothing left) or EXPIRED; delete expires
 * the voucher and zeroes what is left. A public balance check by code reveals only the remaining value and the
 * expiry, rate-limited per address.
 */

export const VOUCHER_STATUSES = ['ACTIVE', 'REDEEMED', 'EXPIRED'] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];

export interface VoucherRow {
  id: string;
  code: string;
  initial_value_vnd: number;
  remaining_value_vnd: number;
  expires_at: Date;
  status: VoucherStatus;
  recipient_name: string | null;
  recipient_email: string | null;
  note: string | null;
  created_by: string | null;
  expired_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface VoucherRedemptionRow {
  id: string;
  reservation_id: string;
  reservation_reference: string;
  reservation_status: ReservationStatus;
  amount_vnd: number;
  created_at: Date;
  released_at: Date | null;
}

export const normalizeVoucherCode = (code: string) => code.trim().toUpperCase();

/** No 0/O, 1/I/L, as reservation references: `GV-XXXX-XXXX` (31^8 ≈ 8.5·10^11 codes). */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export function newVoucherCode(): string {
  const part = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `GV-${part()}-${part()}`;
}

/** The status a reader sees: an ACTIVE voucher past its expiry is EXPIRED, whether or not anyone wrote it. */
export function effectiveVoucherStatus(row: Pick<VoucherRow, 'status' | 'expires_at'>, now: Date): VoucherStatus {
  return row.status === 'ACTIVE' && new Date(row.expires_at) <= now ? 'EXPIRED' : row.status;
}

const NoSuchVoucher = () => NotFound('No such voucher.');

export async function findVoucherOrFail(knex: Knex, id: string): Promise<VoucherRow> {
  const row = await knex('vouchers').where({ id }).first();
  if (!row) throw NoSuchVoucher();
  return row as VoucherRow;
}

export async function voucherRedemptions(knex: Knex, voucherId: string): Promise<VoucherRedemptionRow[]> {
  return knex('voucher_redemptions as v')
    .join('reservations as r', 'r.id', 'v.reservation_id')
    .where('v.voucher_id', voucherId)
    .orderBy([{ column: 'v.created_at', order: 'desc' }, { column: 'v.id', order: 'asc' }])
    .select('v.id', 'v.reservation_id', 'r.reference as reservation_reference', 'r.status as reservation_status', 'v.amount_vnd', 'v.created_at', 'v.released_at');
}

export async function listVouchers(knex: Knex, filters: { status?: VoucherStatus; q?: string; limit: number; offset: number }, now = new Date()) {
  const base = knex('vouchers');
  if (filters.status === 'EXPIRED') base.where((w) => w.where('status', 'EXPIRED').orWhere((a) => a.where('status', 'ACTIVE').andWhere('expires_at', '<=', now)));
  else if (filters.status === 'ACTIVE') base.where('status', 'ACTIVE').andWhere('expires_at', '>', now);
  else if (filters.status) base.where('status', filters.status);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    base.where((w) => w.where('code', 'ilike', pattern).orWhere('recipient_name', 'ilike', pattern).orWhere('recipient_email', 'ilike', pattern));
  }
  const [items, counted] = await Promise.all([
    base.clone().select('*').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'asc' }]).limit(filters.limit).offset(filters.offset),
    base.clone().count({ n: '*' }).first(),
  ]);
  return { items: items as VoucherRow[], total: Number((counted as { n: string | number } | undefined)?.n ?? 0) };
}

export interface VoucherInput {
  code?: string;
  valueVnd: number;
  expiresAt: string;
  recipientName?: string | null;
  recipientEmail?: string | null;
  note?: string | null;
}

const inFuture = (expiresAt: string, now: Date) => {
  if (new Date(expiresAt) <= now) {
    throw Unprocessable('expiry_in_past', 'The expiry must be in the future.', [{ path: 'body/expiresAt', message: 'must be in the future', code: 'expiry_in_past' }]);
  }
};

export async function createVoucher(knex: Knex, input: VoucherInput, createdBy: string | null, now = new Date()): Promise<VoucherRow> {
  inFuture(input.expiresAt, now);
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await knex('vouchers')
        .insert({
          code: input.code ? normalizeVoucherCode(input.code) : newVoucherCode(),
          initial_value_vnd: input.valueVnd,
          remaining_value_vnd: input.valueVnd,
          expires_at: input.expiresAt,
          recipient_name: input.recipientName ?? null,
          recipient_email: input.recipientEmail ?? null,
          note: input.note ?? null,
          created_by: createdBy,
        })
        .returning('*');
      return row as VoucherRow;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (input.code) throw Conflict('code_taken', 'Another voucher has this code.');
      if (attempt >= 5) throw err;
    }
  }
}

export interface VoucherUpdate {
  expiresAt?: string;
  recipientName?: string | null;
  recipientEmail?: string | null;
  note?: string | null;
}

/** Changes the expiry and the recipient fields; an EXPIRED voucher (deleted) cannot be changed (409). */
export async function updateVoucher(knex: Knex, id: string, input: VoucherUpdate, now = new Date()): Promise<VoucherRow> {
  return knex.transaction(async (trx) => {
    const current = (await trx('vouchers').where({ id }).forUpdate().first()) as VoucherRow | undefined;
    if (!current) throw NoSuchVoucher();
    if (current.status === 'EXPIRED') throw Conflict('voucher_expired', 'The voucher was deleted (expired); it cannot be changed.');
    if (input.expiresAt !== undefined) inFuture(input.expiresAt, now);
    const columns: Record<string, unknown> = { updated_at: now };
    if (input.expiresAt !== undefined) columns.expires_at = input.expiresAt;
    if (input.recipientName !== undefined) columns.recipient_name = input.recipientName;
    if (input.recipientEmail !== undefined) columns.recipient_email = input.recipientEmail;
    if (input.note !== undefined) columns.note = input.note;
    const [row] = await trx('vouchers').where({ id }).update(columns).returning('*');
    return row as VoucherRow;
  });
}

/** Delete = EXPIRED with nothing left (idempotent). Reservations that used it keep their credit. */
export async function expireVoucher(knex: Knex, id: string, now = new Date()): Promise<void> {
  await knex.transaction(async (trx) => {
    const current = await trx('vouchers').where({ id }).forUpdate().first('status');
    if (!current) throw NoSuchVoucher();
    if (current.status === 'EXPIRED') return;
    await trx('vouchers').where({ id }).update({ status: 'EXPIRED', remaining_value_vnd: 0, expired_at: now, updated_at: now });
  });
}

/** The public balance: the remaining value and expiry of a code, or undefined (unknown). */
export async function voucherBalance(knex: Knex, code: string, now = new Date()) {
  const row = (await knex('vouchers').where({ code: normalizeVoucherCode(code) }).first()) as VoucherRow | undefined;
  if (!row) return undefined;
  const status = effectiveVoucherStatus(row, now);
  return { remainingValueVnd: status === 'EXPIRED' ? 0 : row.remaining_value_vnd, expiresAt: new Date(row.expires_at).toISOString() };
}

const limitsByApp = new WeakMap<AppContext, RateLimit>();

/** Balance checks: 20 per address per 10 minutes (codes are not guessable, but nobody should get to try). */
export async function throttleBalanceCheck(app: AppContext, ip: string): Promise<void> {
  let limit = limitsByApp.get(app);
  if (!limit) {
    limit = new RateLimit({ name: 'voucher-balance-address', points: 20, windowSeconds: 600 }, rateLimitStoreFor(app.db));
    limitsByApp.set(app, limit);
  }
  await consumeOrThrow([[limit, addressKey(ip)]], 'Too many voucher balance checks from this address; try again later.');
}
