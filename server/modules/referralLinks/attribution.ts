import type { AdjustmentContext, Adjustment, PriceAdjustment } from '../booking/index.ts';
import { Unprocessable } from '../../platform/http/problem.ts';
import { normalizeCode, ReferralCode } from '../referralCodes/index.ts';
import { ReferralPartner } from '../referralPartners/index.ts';
import { ReferralLink } from './models.ts';
import { verifyAttribution } from './tokens.ts';

/**
 * The referral price adjustment (server/modules/booking/adjustments.ts): a hold's `referral` attributes the
 * booking to a partner — by a valid attribution token (its link, the link's code when still active), else by an
 * active `code` of an active partner. A guest-discount code takes its percent off the subtotal. The reservation
 * stores the partner, code and link ids (for the commission and the metrics) and the code as applied.
 * An unknown code or an expired token attributes nothing; a tampered token is 422 `invalid_attribution_token`.
 */
export async function referralAdjustment(context: AdjustmentContext): Promise<Adjustment | null> {
  const referral = context.input.referral;
  if (!referral) return null;
  const { trx } = context;
  let partnerId: string | undefined;
  let linkId: string | null = null;
  let codeId: string | null = null;

  if (referral.attributionToken) {
    const attribution = await verifyAttribution(trx, referral.attributionToken, context.now);
    if (attribution === 'invalid') {
      throw Unprocessable('invalid_attribution_token', 'The referral attribution token is not valid.', [
        { path: 'body/referral/attributionToken', message: 'is not a valid attribution token', code: 'invalid_attribution_token' },
      ]);
    }
    if (attribution !== 'expired') {
      partnerId = attribution.partnerId;
      linkId = attribution.linkId;
      codeId = attribution.codeId;
    }
  }
  if (!partnerId && referral.code) {
    const code = await ReferralCode.query(trx).findOne({ code: normalizeCode(referral.code), status: 'ACTIVE' }).select('id', 'partner_id');
    if (code) {
      partnerId = code.partnerId;
      codeId = code.id;
    }
  }
  if (!partnerId) return null;
  const partner = await ReferralPartner.query(trx).findOne({ id: partnerId, status: 'ACTIVE' }).select('id', 'public_slug');
  if (!partner) return null;
  const code = codeId ? await ReferralCode.query(trx).findOne({ id: codeId, partner_id: partnerId, status: 'ACTIVE' }).select('id', 'code', 'guest_discount_percent') : undefined;
  const link = linkId ? await ReferralLink.query(trx).findOne({ id: linkId, partner_id: partnerId }).select('id', 'slug') : undefined;
  const discountVnd = code ? Math.round((context.subtotalVnd * code.guestDiscountPercent) / 100) : 0;
  return {
    kind: 'referral',
    discountVnd,
    columns: {
      referralPartnerId: partner.id,
      referralCodeId: code?.id ?? null,
      referralLinkId: link?.id ?? null,
      referralCode: code?.code ?? referral.code ?? null,
      referralPartnerSlug: partner.publicSlug,
      referralLinkSlug: link?.slug ?? referral.linkSlug ?? null,
    },
  };
}

export const priceAdjustment: PriceAdjustment = { name: 'referral', order: 30, adjust: referralAdjustment };
