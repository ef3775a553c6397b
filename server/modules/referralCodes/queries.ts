import type { Knex } from 'knex';
import { NotFound } from '../../platform/http/problem.ts';
import { ReferralCode } from './models.ts';

/** Reads of referral codes (issue 12): a partner's codes, archived ones included. */

export async function findCodeOrFail(id: string, trx?: Knex): Promise<ReferralCode> {
  const code = await ReferralCode.query(trx).findById(id);
  if (!code) throw NotFound('No such referral code.');
  return code;
}

export async function listCodes(filters: { partnerId?: string; status?: string; limit: number; offset: number }) {
  const base = ReferralCode.query().modify((q) => {
    if (filters.partnerId) q.where('partner_id', filters.partnerId);
    if (filters.status) q.where('status', filters.status);
  });
  const total = await base.clone().resultSize();
  const items = await base.clone().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filters.limit).offset(filters.offset);
  return { items, total };
}
