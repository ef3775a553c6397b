import type { Knex } from 'knex';
import type { Schema } from '../../platform/http/handler.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { ReferralPartner } from './models.ts';

/**
 * Reads of referral partners (issue 12; DOMAIN.md "Referral"). The public directory and profile read active
 * partners only, through the allow-list presenters of presenters.ts. The metrics, the profile's stats and the
 * partners' active codes and links are set-based SQL over tables of later modules (the referralCodes and
 * referralLinks modules' codes, links and clicks, the booking module's `reservations`, the commissions): read
 * here, never written, so this module imports none of them (issue 33: partners < codes < links < commissions).
 */

export async function findPartnerOrFail(id: string, trx?: Knex): Promise<ReferralPartner> {
  const partner = await ReferralPartner.query(trx).findById(id);
  if (!partner) throw NotFound('No such referral partner.');
  return partner;
}

export async function listPartners(filters: { status?: string; type?: string; limit: number; offset: number }) {
  const base = ReferralPartner.query().modify((q) => {
    if (filters.status) q.where('status', filters.status);
    if (filters.type) q.where('type', filters.type);
  });
  const total = await base.clone().resultSize();
  const items = await base.clone().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filters.limit).offset(filters.offset);
  return { items, total };
}

/** Bookings that count for a partner: attributed reservations that are confirmed or checked in. */
const COUNTED = ['CONFIRMED', 'CHECKED_IN'];

export async function partnerMetrics(knex: Knex, id: string): Promise<Schema<'PartnerMetrics'>> {
  await findPartnerOrFail(id);
  const clicks = await knex('referral_clicks as c').join('referral_links as l', 'l.id', 'c.link_id').where('l.partner_id', id).sum<Array<{ sum: string | null }>>('c.click_count as sum');
  const bookings = await knex('reservations')
    .where({ referral_partner_id: id })
    .whereIn('status', COUNTED)
    .first(knex.raw('count(*)::int as bookings'), knex.raw('coalesce(sum(guest_count), 0)::int as guests'), knex.raw('coalesce(sum(total_vnd), 0)::bigint as revenue'));
  const byStatus = await knex('referral_commissions').where({ partner_id: id }).groupBy('status').select('status', knex.raw('coalesce(sum(amount_vnd), 0)::bigint as amount'));
  const commissions = { PENDING: 0, APPROVED: 0, PAID: 0, VOID: 0 } as Record<string, number>;
  for (const row of byStatus as Array<{ status: string; amount: string }>) commissions[row.status] = Number(row.amount);
  return {
    partnerId: id,
    clicks: Number(clicks[0]?.sum ?? 0),
    bookings: Number(bookings.bookings),
    guests: Number(bookings.guests),
    revenueVnd: Number(bookings.revenue),
    commissions: commissions as Schema<'CommissionTotals'>,
  };
}

// ---- public ---------------------------------------------------------------------------------------------------

/** An active code as the public pages show it (a row of `referral_codes`). */
export interface PublicCode {
  partnerId: string;
  code: string;
  guestDiscountPercent: number;
}
/** An active link as the public pages show it (a row of `referral_links`). */
export interface PublicLink {
  partnerId: string;
  slug: string;
  channel: Schema<'Channel'>;
  label: string | null;
}

async function activeExtras(knex: Knex, partnerIds: string[]): Promise<{ codes: PublicCode[]; links: PublicLink[] }> {
  if (partnerIds.length === 0) return { codes: [], links: [] };
  const codes = await knex('referral_codes')
    .whereIn('partner_id', partnerIds)
    .andWhere('status', 'ACTIVE')
    .orderBy('code')
    .select<PublicCode[]>('partner_id as partnerId', 'code', 'guest_discount_percent as guestDiscountPercent');
  const links = await knex('referral_links')
    .whereIn('partner_id', partnerIds)
    .andWhere('status', 'ACTIVE')
    .orderBy('slug')
    .select<PublicLink[]>('partner_id as partnerId', 'slug', 'channel', 'label');
  return { codes, links };
}

export async function directory(knex: Knex) {
  const partners = await ReferralPartner.query().where({ status: 'ACTIVE' }).orderBy(['name', 'public_slug']);
  const { codes, links } = await activeExtras(knex, partners.map((p) => p.id));
  return partners.map((partner) => ({ partner, codes: codes.filter((c) => c.partnerId === partner.id), links: links.filter((l) => l.partnerId === partner.id) }));
}

export async function profile(knex: Knex, slug: string) {
  const partner = await ReferralPartner.query().findOne({ public_slug: slug, status: 'ACTIVE' });
  if (!partner) throw NotFound('No such partner.');
  const { codes, links } = await activeExtras(knex, [partner.id]);
  const stats = await knex('reservations').where({ referral_partner_id: partner.id }).whereIn('status', COUNTED).first(knex.raw('count(*)::int as bookings'), knex.raw('coalesce(sum(guest_count), 0)::int as guests'));
  return { partner, codes, links, stats: { bookings: Number(stats.bookings), guests: Number(stats.guests) } };
}
