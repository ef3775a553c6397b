import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { PromoCode } from '../models.ts';
import { findPromoCodeOrFail } from '../queries.ts';
import { CodeTaken } from './createPromoCode.ts';
import { promoCodeFields, type PromoCodeInput } from './promoCodeFields.ts';

/** Changes a code; the row is locked so a concurrent hold counts its redemptions against the final limit. */
export async function updatePromoCode(app: Pick<AppContext, 'db' | 'logger'>, id: string, input: PromoCodeInput): Promise<PromoCode> {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const current = await findPromoCodeOrFail(id, trx, { forUpdate: true });
      return current.$query(trx).patchAndFetch(await promoCodeFields(trx, input, current));
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken();
    throw err;
  }
}
