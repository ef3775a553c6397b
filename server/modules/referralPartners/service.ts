import type { Knex } from 'knex';
import { Conflict, NotFound } from '../../platform/http/problem.ts';

/**
 * Referral partners (issue 12; DOMAIN.md "Referral"): hotels, tour companies, concierges, bars, influencers.
 * Admins keep their identity, status, public slug and contact fields, commercial terms (commission rule, payout
 * details, external place id: the spec's hidden "service fields") and private notes. The public directory and
 * profile read active partners only, through the allow-list presenters of presenters.ts.
 */

export interface CommissionRule {
  kind: 'PERCENT' | 'FIXED_PER_GUEST';
  value: number;
}

export interface PartnerRow {
  id: string;
  name: string;
  type: string;
  status: string;
  public_slug: string;
  contact_email: string | null;
  contact_phone: string | null;
  website_url: string | null;
  city: string | null;
  description: string | null;
  commission_kind: CommissionRule['kind'];
  commission_value: number;
  payout_details: string | null;
  external_place_id: string | null;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface PartnerInput {
  name?: string;
  type?: string;
  status?: string;
  publicSlug?: string;
  contactEmail?: string | null;
  contactPhone?: string | null;
  websiteUrl?: string | null;
  city?: string | null;
  description?: string | null;
  commissionRule?: CommissionRule;
  payoutDetails?: string | null;
  externalPlaceId?: string | null;
  notes?: string | null;
}

/** `Riverside Hôtel & Spa` → `riverside-hotel-spa`. */
export function slugify(text: string, max = 60): string {
  const slug = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/gi, 'd')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
  return slug.length >= 2 ? slug : `partner${slug ? `-${slug}` : ''}`;
}

/** The Postgres unique violation of `constraint` (both drivers report `code` 23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return !constraint || e.constraint === constraint || (e.message ?? '').includes(constraint);
}

function columns(input: PartnerInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const map: Array<[keyof PartnerInput, string]> = [
    ['name', 'name'],
    ['type', 'type'],
    ['status', 'status'],
    ['publicSlug', 'public_slug'],
    ['contactEmail', 'contact_email'],
    ['contactPhone', 'contact_phone'],
    ['websiteUrl', 'website_url'],
    ['city', 'city'],
    ['description', 'description'],
    ['payoutDetails', 'payout_details'],
    ['externalPlaceId', 'external_place_id'],
    ['notes', 'notes'],
  ];
  for (const [field, column] of map) if (input[field] !== undefined) out[column] = input[field];
  if (input.commissionRule) {
    out.commission_kind = input.commissionRule.kind;
    out.commission_value = input.commissionRule.value;
  }
  return out;
}

const SlugTaken = () => Conflict('slug_taken', 'Another partner has this public slug.');

export async function createPartner(knex: Knex, input: PartnerInput): Promise<PartnerRow> {
  const explicit = input.publicSlug !== undefined;
  const base = input.publicSlug ?? slugify(input.name ?? 'partner');
  for (let attempt = 0; ; attempt++) {
    const slug = attempt === 0 ? base : `${base.slice(0, 70)}-${attempt + 1}`;
    try {
      const [row] = await knex('referral_partners').insert({ ...columns(input), public_slug: slug }).returning('*');
      return row;
    } catch (err) {
      if (!isUniqueViolation(err, 'referral_partners_public_slug_unique')) throw err;
      if (explicit || attempt >= 20) throw SlugTaken();
    }
  }
}

export async function findPartnerOrFail(knex: Knex, id: string): Promise<PartnerRow> {
  const row = await knex('referral_partners').where({ id }).first();
  if (!row) throw NotFound('No such referral partner.');
  return row;
}

export async function updatePartner(knex: Knex, id: string, input: PartnerInput): Promise<PartnerRow> {
  await findPartnerOrFail(knex, id);
  try {
    const [row] = await knex('referral_partners')
      .where({ id })
      .update({ ...columns(input), updated_at: knex.fn.now() })
      .returning('*');
    return row;
  } catch (err) {
    if (isUniqueViolation(err, 'referral_partners_public_slug_unique')) throw SlugTaken();
    throw err;
  }
}

export async function listPartners(knex: Knex, filters: { status?: string; type?: string; limit: number; offset: number }) {
  const base = knex('referral_partners').modify((q) => {
    if (filters.status) q.where('status', filters.status);
    if (filters.type) q.where('type', filters.type);
  });
  const [{ count }] = await base.clone().count<Array<{ count: string }>>('* as count');
  const items: PartnerRow[] = await base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(filters.limit).offset(filters.offset);
  return { items, total: Number(count) };
}

/** Bookings that count for a partner: attributed reservations that are confirmed or checked in. */
const COUNTED = ['CONFIRMED', 'CHECKED_IN'];

export async function partnerMetrics(knex: Knex, id: string) {
  await findPartnerOrFail(knex, id);
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
    commissions: commissions as { PENDING: number; APPROVED: number; PAID: number; VOID: number },
  };
}

// ---- public ---------------------------------------------------------------------------------------------------

export interface PublicCodeRow {
  partner_id: string;
  code: string;
  guest_discount_percent: number;
}

export interface PublicLinkRow {
  partner_id: string;
  slug: string;
  channel: string;
  label: string | null;
}

async function activeExtras(knex: Knex, partnerIds: string[]) {
  if (partnerIds.length === 0) return { codes: [] as PublicCodeRow[], links: [] as PublicLinkRow[] };
  const codes: PublicCodeRow[] = await knex('referral_codes').whereIn('partner_id', partnerIds).andWhere('status', 'ACTIVE').orderBy('code').select('partner_id', 'code', 'guest_discount_percent');
  const links: PublicLinkRow[] = await knex('referral_links').whereIn('partner_id', partnerIds).andWhere('status', 'ACTIVE').orderBy('slug').select('partner_id', 'slug', 'channel', 'label');
  return { codes, links };
}

export async function directory(knex: Knex) {
  const partners: PartnerRow[] = await knex('referral_partners').where({ status: 'ACTIVE' }).orderBy(['name', 'public_slug']);
  const { codes, links } = await activeExtras(
    knex,
    partners.map((p) => p.id),
  );
  return partners.map((partner) => ({ partner, codes: codes.filter((c) => c.partner_id === partner.id), links: links.filter((l) => l.partner_id === partner.id) }));
}

export async function profile(knex: Knex, slug: string) {
  const partner: PartnerRow | undefined = await knex('referral_partners').where({ public_slug: slug, status: 'ACTIVE' }).first();
  if (!partner) throw NotFound('No such partner.');
  const { codes, links } = await activeExtras(knex, [partner.id]);
  const stats = await knex('reservations').where({ referral_partner_id: partner.id }).whereIn('status', COUNTED).first(knex.raw('count(*)::int as bookings'), knex.raw('coalesce(sum(guest_count), 0)::int as guests'));
  return { partner, codes, links, stats: { bookings: Number(stats.bookings), guests: Number(stats.guests) } };
}
