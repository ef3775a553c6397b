import type { AppContext } from '../../../platform/context.ts';
import type { Schema } from '../../../platform/http/handler.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { ReferralCode } from '../models.ts';
import { findCodeOrFail } from '../queries.ts';
import { ruleFields } from './createReferralCode.ts';

/** Changes a code's discount, rule, description or status (archiving stamps `archivedAt`, re-activating clears it). */
export async function updateReferralCode(app: Pick<AppContext, 'db' | 'logger'>, id: string, input: Schema<'CodeUpdate'>): Promise<ReferralCode> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    const before = await findCodeOrFail(id, trx);
    const patch: Partial<ReferralCode> = { ...ruleFields(input) };
    if (input.guestDiscountPercent !== undefined) patch.guestDiscountPercent = input.guestDiscountPercent;
    if (input.description !== undefined) patch.description = input.description;
    if (input.status !== undefined && input.status !== before.status) {
      patch.status = input.status;
      patch.archivedAt = input.status === 'ARCHIVED' ? now : null;
    }
    return before.$query(trx).patchAndFetch(patch);
  });
}
