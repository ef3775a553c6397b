import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import type { Schema } from '../../../platform/http/handler.ts';
import { Conflict, Unprocessable } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { ReferralCode } from '../../referralCodes/index.ts';
import { ReferralPartner } from '../../referralPartners/index.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { normalizeDestination } from '../destinations.ts';
import { ReferralLink, type Channel } from '../models.ts';
import { findLinkOrFail } from '../queries.ts';

/**
 * Referral links (issue 12): a partner's friendly `/go/{slug}` links. The slug is unique by an index (an explicit
 * duplicate is 409 `slug_taken`, also between concurrent requests); the destination is a public site route.
 */
export const SlugTaken = () => Conflict('slug_taken', 'Another referral link has this slug.');
export const SLUG_INDEX = 'referral_links_slug_unique';
const CHANNEL_WORD: Record<Channel, string> = { QR_STICKER: 'qr', INFLUENCER: 'influencer', BAR: 'bar', WEBSITE: 'web', SOCIAL: 'social' };

/** The link's code: one of the partner's active codes (422 `invalid_code` otherwise), or none. */
async function partnerCode(trx: Knex, partnerId: string, codeId: string | null | undefined): Promise<string | null> {
  if (!codeId) return null;
  const code = await ReferralCode.query(trx).findOne({ id: codeId, partner_id: partnerId, status: 'ACTIVE' }).select('id');
  if (!code) throw Unprocessable('invalid_code', "Not one of the partner's active codes.", [{ path: 'body/codeId', message: "is not an active code of the partner", code: 'invalid_code' }]);
  return code.id;
}

/**
 * Creates a link. Without an explicit slug, one is made from the partner's public slug and the channel (`-2`,
 * `-3`… on a collision, each attempt in its own savepoint).
 */
export async function createReferralLink(app: Pick<AppContext, 'db' | 'logger' | 'config'>, input: Schema<'LinkCreate'>): Promise<ReferralLink> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const partner = await ReferralPartner.query(trx).findById(input.partnerId).select('id', 'public_slug');
    if (!partner) throw Unprocessable('unknown_partner', 'No such referral partner.', [{ path: 'body/partnerId', message: 'is not a partner', code: 'unknown_partner' }]);
    const codeId = await partnerCode(trx, partner.id, input.codeId);
    const destination = normalizeDestination(input.destination ?? '/', app.config);
    const base = `${partner.publicSlug.slice(0, 45).replace(/-+$/, '')}-${CHANNEL_WORD[input.channel]}`;
    for (let attempt = 0; ; attempt++) {
      const slug = input.slug ?? (attempt === 0 ? base : `${base}-${attempt + 1}`);
      try {
        const link = await trx.transaction(async (attemptTrx) =>
          ReferralLink.query(attemptTrx).insert({ slug, destination, channel: input.channel, label: input.label ?? null, partnerId: partner.id, codeId }),
        );
        return findLinkOrFail(link.id, trx);
      } catch (err) {
        if (!isUniqueViolation(err, SLUG_INDEX)) throw err;
        if (input.slug !== undefined || attempt >= 50) throw SlugTaken();
      }
    }
  });
}
