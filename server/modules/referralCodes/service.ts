import type { Knex } from 'knex';
import { Conflict, NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { isUniqueViolation, type CommissionRule } from '../referralPartners/index.ts';

/** Referral codes (issue 12): a partner's codes; delete archives (`ARCHIVED`), attribution history stays. */

export interface CodeRow {
  id: string;
  code: string;
  partner_id: string;
  status: 'ACTIVE' | 'ARCHIVED';
  guest_discount_percent: number;
  commission_kind: CommissionRule['kind'] | null;
  commission_value: number | null;
  description: string | null;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CodeInput {
  code?: string;
  partnerId?: string;
  guestDiscountPercent?: number;
  commissionRule?: CommissionRule | null;
  description?: string | null;
  status?: 'ACTIVE' | 'ARCHIVED';
}

export const normalizeCode = (code: string) => code.trim().toUpperCase();

function ruleColumns(input: CodeInput): Record<string, unknown> {
  if (input.commissionRule === undefined) return {};
  return { commission_kind: input.commissionRule?.kind ?? null, commission_value: input.commissionRule?.value ?? null };
}

export async function createCode(knex: Knex, input: CodeInput): Promise<CodeRow> {
  const partner = await knex('referral_partners').where({ id: input.partnerId }).first('id');
  if (!partner) throw Unprocessable('unknown_partner', 'No such referral partner.', [{ path: 'body/partnerId', message: 'is not a partner', code: 'unknown_partner' }]);
  try {
    const [row] = await knex('referral_codes')
      .insert({
        code: normalizeCode(input.code!),
        partner_id: input.partnerId,
        guest_discount_percent: input.guestDiscountPercent ?? 0,
        description: input.description ?? null,
        ...ruleColumns(input),
      })
      .returning('*');
    return row;
  } catch (err) {
    if (isUniqueViolation(err, 'referral_codes_code_unique')) throw Conflict('code_taken', 'This referral code exists.');
    throw err;
  }
}

export async function findCodeOrFail(knex: Knex, id: string): Promise<CodeRow> {
  const row = await knex('referral_codes').where({ id }).first();
  if (!row) throw NotFound('No such referral code.');
  return row;
}

export async function updateCode(knex: Knex, id: string, input: CodeInput): Promise<CodeRow> {
  const before = await findCodeOrFail(knex, id);
  const changes: Record<string, unknown> = { ...ruleColumns(input), updated_at: knex.fn.now() };
  if (input.guestDiscountPercent !== undefined) changes.guest_discount_percent = input.guestDiscountPercent;
  if (input.description !== undefined) changes.description = input.description;
  if (input.status !== undefined && input.status !== before.status) {
    changes.status = input.status;
    changes.archived_at = input.status === 'ARCHIVED' ? knex.fn.now() : null;
  }
  const [row] = await knex('referral_codes').where({ id }).update(changes).returning('*');
  return row;
}

/** Archives (idempotent): the code stops applying; reservations and commissions keep it. */
export async function archiveCode(knex: Knex, id: string): Promise<void> {
  await findCodeOrFail(knex, id);
  await knex('referral_codes').where({ id, status: 'ACTIVE' }).update({ status: 'ARCHIVED', archived_at: knex.fn.now(), updated_at: knex.fn.now() });
}

export async function listCodes(knex: Knex, filters: { partnerId?: string; status?: string; limit: number; offset: number }) {
  const base = knex('referral_codes').modify((q) => {
    if (filters.partnerId) q.where('partner_id', filters.partnerId);
    if (filters.status) q.where('status', filters.status);
  });
  const [{ count }] = await base.clone().count<Array<{ count: string }>>('* as count');
  const items: CodeRow[] = await base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(filters.limit).offset(filters.offset);
  return { items, total: Number(count) };
}
