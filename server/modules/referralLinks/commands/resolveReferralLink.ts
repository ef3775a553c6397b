import type { AppContext } from '../../../platform/context.ts';
import type { Schema } from '../../../platform/http/handler.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { addressKey, consumeOrThrow } from '../../../platform/rateLimit.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { ReferralCode } from '../../referralCodes/index.ts';
import { ReferralPartner } from '../../referralPartners/index.ts';
import { absoluteDestination } from '../destinations.ts';
import { ReferralLink } from '../models.ts';
import { countClick } from '../queries.ts';
import { ATTRIBUTION_TTL_DAYS, signAttribution } from '../tokens.ts';

/**
 * Resolves a `/go/{slug}` link (an active link of an active partner; 60 per client address per minute): counts a
 * click (link × hour, nothing about the visitor) and hands out the signed attribution the booking carries
 * (tokens.ts; applied by attribution.ts), with the link's code when it is still active.
 */
export async function resolveReferralLink(
  app: Pick<AppContext, 'db' | 'logger' | 'config' | 'referralResolveLimit'>,
  ip: string,
  slug: string,
  requestedLocale: string | undefined,
  now = new Date(),
): Promise<Schema<'Resolution'>> {
  await consumeOrThrow([[app.referralResolveLimit, addressKey(ip)]], 'Too many link resolutions from this address; try again later.');
  const { siteLocales, defaultLocale, publicSiteUrl } = app.config;
  return inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const link = await ReferralLink.query(trx).findOne({ slug, status: 'ACTIVE' });
      const partner = link && (await ReferralPartner.query(trx).findOne({ id: link.partnerId, status: 'ACTIVE' }).select('id', 'public_slug'));
      if (!link || !partner) throw NotFound('No such link.');
      const code = link.codeId ? await ReferralCode.query(trx).findOne({ id: link.codeId, status: 'ACTIVE' }).select('id', 'code') : undefined;
      await countClick(trx, link.id, now);
      const locale = requestedLocale && siteLocales.includes(requestedLocale) ? requestedLocale : defaultLocale;
      const expiresAt = new Date(now.getTime() + ATTRIBUTION_TTL_DAYS * 86_400_000);
      const token = await signAttribution(trx, { linkId: link.id, codeId: code?.id ?? null, partnerId: link.partnerId, expiresAt });
      return {
        destination: absoluteDestination(link.destination, locale, { publicSiteUrl, siteLocales }),
        attribution: { code: code?.code ?? null, linkSlug: link.slug, partnerSlug: partner.publicSlug, token, expiresAt: expiresAt.toISOString() },
      };
    },
    now,
  );
}
