import type { AppContext } from '../../../platform/context.ts';
import type { Schema } from '../../../platform/http/handler.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { SLUG_INDEX, SlugTaken } from '../errors.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { ReferralPartner } from '../models.ts';
import { slugify } from '../slugs.ts';

export type PartnerInput = Schema<'PartnerCreate'> | Schema<'PartnerUpdate'>;

const FIELDS = ['name', 'type', 'status', 'publicSlug', 'contactEmail', 'contactPhone', 'websiteUrl', 'city', 'description', 'payoutDetails', 'externalPlaceId', 'notes'] as const;

/** The model's fields the input sets (an absent field is left as it is). */
export function partnerFields(input: PartnerInput): Partial<ReferralPartner> {
  const out: Partial<ReferralPartner> = {};
  for (const field of FIELDS) if (input[field] !== undefined) (out as Record<string, unknown>)[field] = input[field];
  if (input.commissionRule) {
    out.commissionKind = input.commissionRule.kind;
    out.commissionValue = input.commissionRule.value;
  }
  return out;
}

/**
 * Creates a partner. Without an explicit public slug, one is made from the name (`-2`, `-3`… on a collision, each
 * attempt in its own savepoint); an explicit slug that is taken is 409 `slug_taken`.
 */
export async function createReferralPartner(app: Pick<AppContext, 'db' | 'logger'>, input: Schema<'PartnerCreate'>): Promise<ReferralPartner> {
  const explicit = input.publicSlug !== undefined;
  const base = input.publicSlug ?? slugify(input.name ?? 'partner');
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    for (let attempt = 0; ; attempt++) {
      const slug = attempt === 0 ? base : `${base.slice(0, 70)}-${attempt + 1}`;
      try {
        return await trx.transaction(async (attemptTrx) => ReferralPartner.query(attemptTrx).insertAndFetch({ ...partnerFields(input), publicSlug: slug }));
      } catch (err) {
        if (!isUniqueViolation(err, SLUG_INDEX)) throw err;
        if (explicit || attempt >= 20) throw SlugTaken();
      }
    }
  });
}
