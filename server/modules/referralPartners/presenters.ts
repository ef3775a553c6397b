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
    descriptionTranslations: { ...(partner.descriptionTranslations ?? {}) },
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

/**
 * The partner's description for a guest reading `locale` (issue 34 §2): the text in that locale when the partner
 * wrote one, else the default locale's (`description`), else any it has; with the locale it is in, so a page can
 * say it is showing another language. Never an English text when one in the asked locale exists.
 */
export function partnerDescription(partner: Pick<ReferralPartner, 'description' | 'descriptionTranslations'>, locale: string, defaultLocale: string): { text: string | null; locale: string | null } {
  const texts: Record<string, string> = { ...(partner.descriptionTranslations ?? {}) };
  if (partner.description) texts[defaultLocale] = partner.description;
  for (const candidate of [locale, defaultLocale, ...Object.keys(texts)]) {
    if (texts[candidate]?.trim()) return { text: texts[candidate], locale: candidate };
  }
  return { text: null, locale: null };
}

export function presentProfile(
  p: { partner: ReferralPartner; codes: PublicCode[]; links: PublicLink[]; stats: { bookings: number; guests: number } },
  locale: string,
  defaultLocale: string,
  siteUrl: string,
): Schema<'Profile'> {
  const description = partnerDescription(p.partner, locale, defaultLocale);
  return {
    ...publicContact(p.partner),
    description: description.text,
    descriptionLocale: description.locale,
    // The earning rules are written in English and Vietnamese (`earningRules`): the locale they are in.
    locale: locale === 'vi' ? 'vi' : 'en',
    earningRules: earningRules(p.partner, p.codes, locale),
    stats: p.stats,
    codes: p.codes.map(presentPublicCode),
    links: p.links.map((l) => presentPublicLink(l, siteUrl)),
  };
}
