import type { AppContext } from '../../../platform/context.ts';
import type { Schema } from '../../../platform/http/handler.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { normalizeDestination } from '../destinations.ts';
import type { ReferralLink } from '../models.ts';
import { findLinkOrFail } from '../queries.ts';
import { SLUG_INDEX, SlugTaken } from './createReferralLink.ts';

/** Changes a link's slug, destination, channel, label or status (another link's slug is 409 `slug_taken`). */
export async function updateReferralLink(app: Pick<AppContext, 'db' | 'logger' | 'config'>, id: string, input: Schema<'LinkUpdate'>): Promise<ReferralLink> {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const link = await findLinkOrFail(id, trx);
      const patch: Partial<ReferralLink> = {};
      if (input.slug !== undefined) patch.slug = input.slug;
      if (input.destination !== undefined) patch.destination = normalizeDestination(input.destination, app.config);
      if (input.channel !== undefined) patch.channel = input.channel;
      if (input.label !== undefined) patch.label = input.label;
      if (input.status !== undefined) patch.status = input.status;
      await link.$query(trx).patch(patch);
      return findLinkOrFail(id, trx);
    });
  } catch (err) {
    if (isUniqueViolation(err, SLUG_INDEX)) throw SlugTaken();
    throw err;
  }
}
