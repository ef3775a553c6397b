import { createHash, randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { Conflict, NotFound } from '../../platform/http/problem.ts';
import { lockIdempotencyKey, rememberAnswer, rememberedAnswer } from '../../platform/db/idempotency.ts';
import { digest } from '../booking/index.ts';

/**
 * Payout batches (issue 12): every APPROVED commission not yet in a batch joins a new batch of its partner and
 * becomes PAID, in one transaction. The claim is one conditional `update … where status = 'APPROVED' and
 * payout_id is null`: a concurrent request waits on the rows the first one updated, re-reads them as PAID and
 * skips them, so no commission is ever in two batches. Idempotency-Key answers are remembered (sealed) in the
 * shared `idempotency_keys` table under this route, like the booking hold's.
 */
export const PAYOUT_ROUTE = 'POST /api/referral-commissions/payouts';

export interface PayoutRow {
  id: string;
  reference: string;
  partner_id: string;
  total_vnd: number;
  commission_count: number;
  commission_ids: string[];
  note: string | null;
  created_by: string | null;
  created_at: Date;
}

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
function newPayoutReference(now: Date): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `RP-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${code}`;
}

const requestHash = (body: { partnerId?: string; note?: string }) => createHash('sha256').update(JSON.stringify([body.partnerId ?? null, body.note ?? null])).digest();

async function remembered(knex: Knex, key: string, hash: Buffer, now: Date): Promise<PayoutRow[] | undefined> {
  const answer = await rememberedAnswer(knex, PAYOUT_ROUTE, key, hash, now);
  return answer ? payoutsByIds(knex, JSON.parse(answer.body) as string[]) : undefined;
}

async function payoutsByIds(knex: Knex, ids: string[]): Promise<PayoutRow[]> {
  const rows: PayoutRow[] = [];
  for (const id of ids) rows.push(await findPayoutOrFail(knex, id));
  return rows;
}

export async function createPayouts(
  knex: Knex,
  body: { partnerId?: string; note?: string },
  createdBy: string | null,
  idempotencyKey: string | undefined,
  now = new Date(),
): Promise<{ payouts: PayoutRow[]; replayed: boolean }> {
  const hash = requestHash(body);
  if (idempotencyKey) {
    const before = await remembered(knex, idempotencyKey, hash, now);
    if (before) return { payouts: before, replayed: true };
  }
  const ids = await knex.transaction(async (trx) => {
    if (idempotencyKey) {
      await lockIdempotencyKey(trx, PAYOUT_ROUTE, idempotencyKey);
      const raced = await trx('idempotency_keys').where({ route: PAYOUT_ROUTE, key_hash: digest(idempotencyKey) }).first('response_body', 'request_hash');
      if (raced) return { replay: true as const };
    }
    const partners: Array<{ partner_id: string }> = await trx('referral_commissions')
      .where({ status: 'APPROVED' })
      .whereNull('payout_id')
      .modify((q) => {
        if (body.partnerId) q.where('partner_id', body.partnerId);
      })
      .distinct('partner_id')
      .orderBy('partner_id');
    const made: string[] = [];
    for (const { partner_id } of partners) {
      const [payout] = await trx('referral_payouts')
        .insert({ reference: newPayoutReference(now), partner_id, total_vnd: 0, commission_count: 0, note: body.note ?? null, created_by: createdBy, created_at: now })
        .returning('id');
      const claimed: Array<{ amount_vnd: number }> = await trx('referral_commissions')
        .where({ partner_id, status: 'APPROVED' })
        .whereNull('payout_id')
        .update({ status: 'PAID', payout_id: payout.id, status_changed_at: now })
        .returning('amount_vnd');
      if (claimed.length === 0) {
        await trx('referral_payouts').where({ id: payout.id }).delete();
        continue;
      }
      await trx('referral_payouts')
        .where({ id: payout.id })
        .update({ total_vnd: claimed.reduce((sum, c) => sum + c.amount_vnd, 0), commission_count: claimed.length });
      made.push(payout.id);
    }
    if (made.length === 0) throw Conflict('nothing_to_pay', 'No approved commission is waiting for a payout.');
    if (idempotencyKey) {
      await rememberAnswer(trx, PAYOUT_ROUTE, idempotencyKey, hash, 201, JSON.stringify(made), now);
    }
    return { ids: made };
  });
  if ('replay' in ids) {
    const again = await remembered(knex, idempotencyKey!, hash, now);
    return { payouts: again ?? [], replayed: true };
  }
  return { payouts: await payoutsByIds(knex, ids.ids), replayed: false };
}

export async function findPayoutOrFail(knex: Knex, id: string): Promise<PayoutRow> {
  const row = await knex('referral_payouts').where({ id }).first();
  if (!row) throw NotFound('No such payout batch.');
  const commissions = await knex('referral_commissions').where({ payout_id: id }).orderBy(['created_at', 'id']).select('id');
  return { ...row, commission_ids: commissions.map((c: { id: string }) => c.id) };
}

export async function listPayouts(knex: Knex, f: { partnerId?: string; limit: number; offset: number }) {
  const base = knex('referral_payouts').modify((q) => {
    if (f.partnerId) q.where('partner_id', f.partnerId);
  });
  const [{ count }] = await base.clone().count<Array<{ count: string }>>('* as count');
  const rows = await base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(f.limit).offset(f.offset).select('id');
  return { items: await payoutsByIds(knex, rows.map((r: { id: string }) => r.id)), total: Number(count) };
}
