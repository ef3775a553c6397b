import { iso } from '../presenting.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { ReferralPartner } from './models.ts';
import type { PublicCode, PublicLink } from './queries.ts';

/** Admin view: everything, including the commercial terms and notes. */
export function presentPartner(partner: ReferralPartner): Schema<'Partner'> {
  return {
    id: partner.id,
    name: partner.name,
    type: partner.type,
    status: partner.status,
    publicSlug: partner.publicSlug,
    contactEmail: partner.contactEmail,
    contactPhone: partner.contactPhone,
    websiteUrl: partner.websiteUrl,
    city: partner.city,
    description: partner.description,
    commissionRule: { kind: partner.commissionKind, value: partner.commissionValue },
    payoutDetails: partner.payoutDetails,
    externalPlaceId: partner.externalPlaceId,
    notes: partner.notes,
    createdAt: iso(partner.createdAt)!,
    updatedAt: iso(partner.updatedAt)!,
  };
}

// ---- public: allow-lists only (never ids, notes, commission values, payout details, external place ids) --------

export const presentPublicCode = (code: PublicCode): Schema<'PublicCode'> => ({ code: code.code, guestDiscount: code.guestDiscountPercent > 0, guestDiscountPercent: code.guestDiscountPercent });

export const presentPublicLink = (link: PublicLink, siteUrl: string): Schema<'PublicLink'> => ({
  slug: link.slug,
  channel: link.channel,
  label: link.label,
  url: `${siteUrl}/go/${link.slug}`,
});

const publicContact = (partner: ReferralPartner) => ({
  name: partner.name,
  type: partner.type,
  publicSlug: partner.publicSlug,
  contactEmail: partner.contactEmail,
  contactPhone: partner.contactPhone,
  websiteUrl: partner.websiteUrl,
  city: partner.city,
});

export function presentDirectoryEntry(entry: { partner: ReferralPartner; codes: PublicCode[]; links: PublicLink[] }): Schema<'DirectoryEntry'> {
  return {
    ...publicContact(entry.partner),
    codes: entry.codes.map(presentPublicCode),
    guestDiscount: entry.codes.some((c) => c.guestDiscountPercent > 0),
    channels: [...new Set(entry.links.map((l) => l.channel))].sort(),
  };
}

const vnd = (amount: number, locale: string) => `${new Intl.NumberFormat(locale === 'vi' ? 'vi-VN' : 'en-US').format(amount)} VND`;

/** Earning rules, written from the commission rule and the codes' guest discounts, in `locale` (en or vi; others read en). */
export function earningRules(partner: ReferralPartner, codes: PublicCode[], locale: string): string[] {
  const vi = locale === 'vi';
  const rules: string[] = [];
  if (partner.commissionValue > 0) {
    if (partner.commissionKind === 'PERCENT') {
      rules.push(vi ? `${partner.commissionValue}% trên mỗi đặt chỗ đã thanh toán` : `${partner.commissionValue}% of every paid booking`);
    } else {
      rules.push(vi ? `${vnd(partner.commissionValue, locale)} cho mỗi khách của đặt chỗ đã thanh toán` : `${vnd(partner.commissionValue, locale)} per guest of every paid booking`);
    }
  }
  for (const code of codes) {
    if (code.guestDiscountPercent > 0) {
      rules.push(vi ? `Khách dùng mã ${code.code} được giảm ${code.guestDiscountPercent}%` : `Guests using code ${code.code} get ${code.guestDiscountPercent}% off`);
    }
  }
  return rules;
}

export function presentProfile(
  p: { partner: ReferralPartner; codes: PublicCode[]; links: PublicLink[]; stats: { bookings: number; guests: number } },
  locale: string,
  siteUrl: string,
): Schema<'Profile'> {
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
