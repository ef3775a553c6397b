import type { AppContext } from '../../../platform/context.ts';
import type { Schema } from '../../../platform/http/handler.ts';
import { Conflict, Unprocessable } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { ReferralPartner } from '../../referralPartners/index.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { normalizeCode } from '../codeValue.ts';
import { ReferralCode } from '../models.ts';

/** The code's commission-rule fields when the input sets the rule (null clears it; absent leaves it). */
export function ruleFields(input: { commissionRule?: Schema<'CommissionRule'> | null }): Partial<ReferralCode> {
  if (input.commissionRule === undefined) return {};
  return { commissionKind: input.commissionRule?.kind ?? null, commissionValue: input.commissionRule?.value ?? null };
}

/** Creates a partner's code (422 `unknown_partner` for no such partner; a taken code is 409 `code_taken`). */
export async function createReferralCode(app: Pick<AppContext, 'db' | 'logger'>, input: Schema<'CodeCreate'>): Promise<ReferralCode> {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const partner = await ReferralPartner.query(trx).findById(input.partnerId).select('id');
      if (!partner) throw Unprocessable('unknown_partner', 'No such referral partner.', [{ path: 'body/partnerId', message: 'is not a partner', code: 'unknown_partner' }]);
      return ReferralCode.query(trx).insertAndFetch({
        code: normalizeCode(input.code),
        partnerId: input.partnerId,
        guestDiscountPercent: input.guestDiscountPercent ?? 0,
        description: input.description ?? null,
        ...ruleFields(input),
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'referral_codes_code_unique')) throw Conflict('code_taken', 'This referral code exists.');
    throw err;
  }
}
