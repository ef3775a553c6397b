import { pickLocale } from '../../domain/localized.ts';
import { cancellableUntil, effectiveStatus, type GuestMoney, type ReservationStatus, type ReservationView } from './service.ts';

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
export function presentGuestReservation(row: ReservationView, money: GuestMoney, p: GuestPresentation) {
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
    // The reservation's own snapshot: what this guest booked with, never the customer record.
    contact: { honorific: row.contact_honorific, name: row.contact_name, email: row.contact_email, phone: row.contact_phone },
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
    payment: presentGuestPayment(Number(row.total_vnd), status, money),
    refunds: money.refunds.map((refund) => ({
      amountVnd: Number(refund.amount_vnd),
      status: refund.status as 'PENDING' | 'SUCCEEDED' | 'FAILED',
      requestedAt: iso(refund.created_at)!,
      completedAt: iso(refund.completed_at),
    })),
    attribution: { promoCode: row.promo_code, voucherCode: row.voucher_code, referralCode: row.referral_code },
    cancellableUntil: until.toISOString(),
    canCancel: (status === 'HELD' || status === 'CONFIRMED') && p.now < until,
    createdAt: iso(row.created_at)!,
    cancelledAt: iso(row.cancelled_at),
  };
}

const SETTLED = ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
const OWING: readonly ReservationStatus[] = ['HELD', 'CONFIRMED', 'CHECKED_IN'];
type Gateway = 'VNPAY' | 'BANK_TRANSFER' | 'CASH' | 'CARD_ON_SITE';

/**
 * What was paid, refunded and is still due, and the one word a guest reads first (the contract's `GuestPayment`):
 * refunds first (they are the latest news), then what was paid against what is owed, then a payment in progress.
 */
export function presentGuestPayment(totalVnd: number, status: ReservationStatus, money: GuestMoney) {
  const settled = money.payments.filter((payment) => SETTLED.includes(payment.status));
  const paidVnd = settled.reduce((sum, payment) => sum + Number(payment.amount_vnd), 0);
  const refundedVnd = settled.reduce((sum, payment) => sum + Number(payment.refunded_vnd), 0);
  // A refund is money the venue gave back, never a debt again: what is due counts what was paid.
  const dueVnd = OWING.includes(status) ? Math.max(0, totalVnd - paidVnd) : 0;
  const pending = money.payments.filter((payment) => payment.status === 'PENDING');
  const latest = settled.at(-1) ?? pending.at(-1);
  let state: 'UNPAID' | 'PENDING' | 'PARTIALLY_PAID' | 'PAID' | 'NOTHING_DUE' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  if (refundedVnd > 0) state = refundedVnd >= paidVnd ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  else if (paidVnd > 0) state = dueVnd > 0 ? 'PARTIALLY_PAID' : 'PAID';
  else if (pending.length > 0 && dueVnd > 0) state = 'PENDING';
  else state = dueVnd > 0 ? 'UNPAID' : 'NOTHING_DUE';
  return { state, method: (latest?.gateway ?? null) as Gateway | null, paidVnd, refundedVnd, dueVnd };
}
