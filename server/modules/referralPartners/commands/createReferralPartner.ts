import type { AppContext } from '../../../platform/context.ts';
import type { Schema } from '../../../platform/http/handler.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Unprocessable, type FieldError } from '../../../platform/http/problem.ts';
import type { LocaleConfig } from '../../../domain/localizedInput.ts';
import { SLUG_INDEX, SlugTaken } from '../errors.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { ReferralPartner } from '../models.ts';
import { slugify } from '../slugs.ts';

export type PartnerInput = Schema<'PartnerCreate'> | Schema<'PartnerUpdate'>;

const FIELDS = ['name', 'type', 'status', 'publicSlug', 'contactEmail', 'contactPhone', 'websiteUrl', 'city', 'description', 'payoutDetails', 'externalPlaceId', 'notes'] as const;

/**
 * The model's fields the input sets (an absent field is left as it is). Description translations (issue 34 §2) must
 * each be a site locale other than the default one, whose text is `description` (422 `unknown_locale` otherwise);
 * empty texts are dropped.
 */
export function partnerFields(input: PartnerInput, locales: LocaleConfig): Partial<ReferralPartner> {
  const out: Partial<ReferralPartner> = {};
  for (const field of FIELDS) if (input[field] !== undefined) (out as Record<string, unknown>)[field] = input[field];
  if (input.commissionRule) {
    out.commissionKind = input.commissionRule.kind;
    out.commissionValue = input.commissionRule.value;
  }
  if (input.descriptionTranslations !== undefined) {
    const others = locales.siteLocales.filter((locale) => locale !== locales.defaultLocale);
    const errors: FieldError[] = Object.keys(input.descriptionTranslations)
      .filter((locale) => !others.includes(locale))
      .map((locale) => ({
        path: `body/descriptionTranslations/${locale}`,
        message: locale === locales.defaultLocale ? `is the default locale: its text is description` : `is not a site locale (${locales.siteLocales.join(', ')})`,
        code: 'unknown_locale' as const,
      }));
    if (errors.length) throw Unprocessable('unknown_locale', 'A description translation must be in one of the site’s other locales.', errors);
    out.descriptionTranslations = Object.fromEntries(Object.entries(input.descriptionTranslations).filter(([, text]) => text.trim() !== ''));
  }
  return out;
}

/**
 * Creates a partner. Without an explicit public slug, one is made from the name (`-2`, `-3`… on a collision, each
 * attempt in its own savepoint); an explicit slug that is taken is 409 `slug_taken`.
 */
export async function createReferralPartner(app: Pick<AppContext, 'db' | 'logger' | 'config'>, input: Schema<'PartnerCreate'>): Promise<ReferralPartner> {
  const fields = partnerFields(input, app.config);
  const explicit = input.publicSlug !== undefined;
  const base = input.publicSlug ?? slugify(input.name ?? 'partner');
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    for (let attempt = 0; ; attempt++) {
      const slug = attempt === 0 ? base : `${base.slice(0, 70)}-${attempt + 1}`;
      try {
        return await trx.transaction(async (attemptTrx) => ReferralPartner.query(attemptTrx).insertAndFetch({ ...fields, publicSlug: slug }));
      } catch (err) {
        if (!isUniqueViolation(err, SLUG_INDEX)) throw err;
        if (explicit || attempt >= 20) throw SlugTaken();
      }
    }
  });
}
