import { iso } from '../presenting.ts';
import type { PartnerRow, PublicCodeRow, PublicLinkRow } from './service.ts';

/** Admin view: everything, including the commercial terms and notes. */
export function presentPartner(row: PartnerRow) {
  return {
    id: row.id,
    name: row.name,
    type: row.type as 'HOTEL',
    status: row.status as 'ACTIVE',
    publicSlug: row.public_slug,
    contactEmail: row.contact_email,
    contactPhone: row.contact_phone,
    websiteUrl: row.website_url,
    city: row.city,
    description: row.description,
    commissionRule: { kind: row.commission_kind, value: row.commission_value },
    payoutDetails: row.payout_details,
    externalPlaceId: row.external_place_id,
    notes: row.notes,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

// ---- public: allow-lists only (never ids, notes, commission values, payout details, external place ids) --------

export const presentPublicCode = (row: PublicCodeRow) => ({ code: row.code, guestDiscount: row.guest_discount_percent > 0, guestDiscountPercent: row.guest_discount_percent });

export const presentPublicLink = (row: PublicLinkRow, siteUrl: string) => ({
  slug: row.slug,
  channel: row.channel as 'QR_STICKER',
  label: row.label,
  url: `${siteUrl}/go/${row.slug}`,
});

const publicContact = (row: PartnerRow) => ({
  name: row.name,
  type: row.type as 'HOTEL',
  publicSlug: row.public_slug,
  contactEmail: row.contact_email,
  contactPhone: row.contact_phone,
  websiteUrl: row.website_url,
  city: row.city,
});

export function presentDirectoryEntry(entry: { partner: PartnerRow; codes: PublicCodeRow[]; links: PublicLinkRow[] }) {
  return {
    ...publicContact(entry.partner),
    codes: entry.codes.map(presentPublicCode),
    guestDiscount: entry.codes.some((c) => c.guest_discount_percent > 0),
    channels: [...new Set(entry.links.map((l) => l.channel))].sort() as Array<'QR_STICKER'>,
  };
}

const vnd = (amount: number, locale: string) => `${new Intl.NumberFormat(locale === 'vi' ? 'vi-VN' : 'en-US').format(amount)} VND`;

/** Earning rules, written from the commission rule and the codes' guest discounts, in `locale` (en or vi; others read en). */
export function earningRules(partner: PartnerRow, codes: PublicCodeRow[], locale: string): string[] {
  const vi = locale === 'vi';
  const rules: string[] = [];
  if (partner.commission_value > 0) {
    if (partner.commission_kind === 'PERCENT') {
      rules.push(vi ? `${partner.commission_value}% trên mỗi đặt chỗ đã thanh toán` : `${partner.commission_value}% of every paid booking`);
    } else {
      rules.push(vi ? `${vnd(partner.commission_value, locale)} cho mỗi khách của đặt chỗ đã thanh toán` : `${vnd(partner.commission_value, locale)} per guest of every paid booking`);
    }
  }
  for (const code of codes) {
    if (code.guest_discount_percent > 0) {
      rules.push(vi ? `Khách dùng mã ${code.code} được giảm ${code.guest_discount_percent}%` : `Guests using code ${code.code} get ${code.guest_discount_percent}% off`);
    }
  }
  return rules;
}

export function presentProfile(p: { partner: PartnerRow; codes: PublicCodeRow[]; links: PublicLinkRow[]; stats: { bookings: number; guests: number } }, locale: string, siteUrl: string) {
  return {
    ...publicContact(p.partner),
    description: p.partner.description,
    locale,
    earningRules: earningRules(p.partner, p.codes, locale),
    stats: p.stats,
    codes: p.codes.map(presentPublicCode),
    links: p.links.map((l) => presentPublicLink(l, siteUrl)),
  };
}
