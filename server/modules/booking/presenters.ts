import { pickLocale } from '../../catalog/localized.ts';
import { cancellableUntil, effectiveStatus, type ReservationView } from './service.ts';

export interface GuestPresentation {
  defaultLocale: string;
  siteLocales: readonly string[];
  cancellationWindowHours: number;
  now: Date;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * One reservation as its guest sees it (allow-list): its own contact, the event and offer it is for, the price
 * breakdown and what the guest may still do. Never staff notes, the table, analytics ids, other guests or ids
 * of internal rows; the access token only in the creation answer (added by the handler).
 */
export function presentGuestReservation(row: ReservationView, p: GuestPresentation) {
  const locale = row.locale && p.siteLocales.includes(row.locale) ? row.locale : p.defaultLocale;
  const status = effectiveStatus(row, p.now);
  const until = cancellableUntil(row.event_starts_at, p.cancellationWindowHours);
  return {
    reference: row.reference,
    status,
    holdExpiresAt: status === 'HELD' ? iso(row.hold_expires_at) : null,
    guestCount: row.guest_count,
    locale,
    customerNote: row.customer_note,
    contact: { honorific: row.customer_honorific, name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
    event: {
      slug: row.event_slug,
      startsAt: iso(row.event_starts_at)!,
      doorsAt: iso(row.event_doors_at),
      status: row.event_status,
      show: { slug: row.show_slug, code: row.show_code, title: pickLocale(row.show_title, locale, p.defaultLocale) },
    },
    offer: { code: row.offer_code, name: pickLocale(row.offer_name, locale, p.defaultLocale), bookingPath: row.booking_path },
    price: {
      currency: 'VND' as const,
      pricePerGuestVnd: row.price_per_guest_vnd,
      subtotalVnd: row.subtotal_vnd,
      discountVnd: row.discount_vnd,
      serviceChargeVnd: row.service_charge_vnd,
      vatVnd: row.vat_vnd,
      voucherCreditVnd: row.voucher_credit_vnd,
      totalVnd: row.total_vnd,
      serviceChargePercent: Number(row.service_charge_percent),
      vatPercent: Number(row.vat_percent),
    },
    attribution: { promoCode: row.promo_code, voucherCode: row.voucher_code, referralCode: row.referral_code },
    cancellableUntil: until.toISOString(),
    canCancel: (status === 'HELD' || status === 'CONFIRMED') && p.now < until,
    createdAt: iso(row.created_at)!,
    cancelledAt: iso(row.cancelled_at),
  };
}
