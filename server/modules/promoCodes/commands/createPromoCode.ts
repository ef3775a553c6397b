import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { PromoCode } from '../models.ts';
import { promoCodeFields, type PromoCodeInput } from './promoCodeFields.ts';

export const CodeTaken = () => Conflict('code_taken', 'Another promo code has this code.');

/** Creates a promo code; a taken code is the unique index's answer (409 `code_taken`). */
export async function createPromoCode(app: Pick<AppContext, 'db' | 'logger'>, input: PromoCodeInput): Promise<PromoCode> {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => PromoCode.query(trx).insertAndFetch(await promoCodeFields(trx, input)));
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken();
    throw err;
  }
}
