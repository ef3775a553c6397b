import { createHash, randomInt } from 'node:crypto';
import type { AppContext } from '../../../platform/context.ts';
import { IdempotencyKey } from '../../../platform/db/models.ts';
import { lockIdempotencyKey, rememberAnswer, rememberedAnswer } from '../../../platform/db/idempotency.ts';
import type { Schema } from '../../../platform/http/handler.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { digest } from '../../booking/index.ts';
import { ReferralPayout } from '../models.ts';
import { claimApproved, partnersToPay, payoutsByIds, type PayoutView } from '../queries.ts';

/**
 * Payout batches (issue 12): every APPROVED commission not yet in a batch joins a new batch of its partner and
 * becomes PAID, in one transaction. The claim is one conditional `update … where status = 'APPROVED' and
 * payout_id is null` (queries.ts `claimApproved`): a concurrent request waits on the rows the first one updated,
 * re-reads them as PAID and skips them, so no commission is ever in two batches. Idempotency-Key answers are
 * remembered (sealed) in the shared `idempotency_keys` table under this route, like the booking hold's.
 */
export const PAYOUT_ROUTE = 'POST /api/referral-commissions/payouts';

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
function newPayoutReference(now: Date): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `RP-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${code}`;
}

const requestHash = (body: Schema<'PayoutCreate'>) => createHash('sha256').update(JSON.stringify([body.partnerId ?? null, body.note ?? null])).digest();

async function remembered(app: Pick<AppContext, 'db'>, key: string, hash: Buffer, now: Date): Promise<PayoutView[] | undefined> {
  const answer = await rememberedAnswer(app.db.knex, PAYOUT_ROUTE, key, hash, now);
  return answer ? payoutsByIds(JSON.parse(answer.body) as string[]) : undefined;
}

export async function createReferralPayouts(
  app: Pick<AppContext, 'db' | 'logger'>,
  body: Schema<'PayoutCreate'>,
  createdBy: string | null,
  idempotencyKey: string | undefined,
  now = new Date(),
): Promise<{ payouts: PayoutView[]; replayed: boolean }> {
  const hash = requestHash(body);
  if (idempotencyKey) {
    const before = await remembered(app, idempotencyKey, hash, now);
    if (before) return { payouts: before, replayed: true };
  }
  const ids = await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      if (idempotencyKey) {
        await lockIdempotencyKey(trx, PAYOUT_ROUTE, idempotencyKey);
        const raced = await IdempotencyKey.query(trx).findOne({ route: PAYOUT_ROUTE, key_hash: digest(idempotencyKey) }).select('response_body', 'request_hash');
        if (raced) return { replay: true as const };
      }
      const made: string[] = [];
      for (const partnerId of await partnersToPay(trx, body.partnerId)) {
        const payout = await ReferralPayout.query(trx).insert({
          reference: newPayoutReference(now),
          partnerId,
          totalVnd: 0,
          commissionCount: 0,
          note: body.note ?? null,
          createdBy,
          createdAt: now,
        });
        const claimed = await claimApproved(trx, partnerId, payout.id, now);
        if (claimed.length === 0) {
          await ReferralPayout.query(trx).deleteById(payout.id);
          continue;
        }
        await ReferralPayout.query(trx)
          .findById(payout.id)
          .patch({ totalVnd: claimed.reduce((sum, amount) => sum + amount, 0), commissionCount: claimed.length });
        made.push(payout.id);
      }
      if (made.length === 0) throw Conflict('nothing_to_pay', 'No approved commission is waiting for a payout.');
      if (idempotencyKey) {
        await rememberAnswer(trx, PAYOUT_ROUTE, idempotencyKey, hash, 201, JSON.stringify(made), now);
      }
      return { ids: made };
    },
    now,
  );
  if ('replay' in ids) {
    const again = await remembered(app, idempotencyKey!, hash, now);
    return { payouts: again ?? [], replayed: true };
  }
  return { payouts: await payoutsByIds(ids.ids), replayed: false };
}
