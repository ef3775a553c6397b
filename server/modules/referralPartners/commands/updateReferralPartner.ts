import type { AppContext } from '../../../platform/context.ts';
import type { Schema } from '../../../platform/http/handler.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { SLUG_INDEX, SlugTaken } from '../errors.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import type { ReferralPartner } from '../models.ts';
import { findPartnerOrFail } from '../queries.ts';
import { partnerFields } from './createReferralPartner.ts';

/** Changes a partner's fields; another partner's public slug is 409 `slug_taken`, a translation outside the site's other locales 422 `unknown_locale`. */
export async function updateReferralPartner(app: Pick<AppContext, 'db' | 'logger' | 'config'>, id: string, input: Schema<'PartnerUpdate'>): Promise<ReferralPartner> {
  const fields = partnerFields(input, app.config);
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const partner = await findPartnerOrFail(id, trx);
      return partner.$query(trx).patchAndFetch(fields);
    });
  } catch (err) {
    if (isUniqueViolation(err, SLUG_INDEX)) throw SlugTaken();
    throw err;
  }
}
