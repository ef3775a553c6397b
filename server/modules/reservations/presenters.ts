import { pickLocale } from '../../domain/localized.ts';
import { effectiveStatus } from '../booking/index.ts';
import { iso } from '../presenting.ts';
import type { PaymentLine, StaffReservationRow } from './service.ts';

/**
 * Reservations as staff see them (allow-lists). Never the access token, the check-in token or their hashes, nor
 * the analytics ids; titles and names in the default locale.
 */

type EventStatus = 'SCHEDULED' | 'CANCELLED' | 'COMPLETED';
type Gateway = 'VNPAY' | 'BANK_TRANSFER' | 'CASH' | 'CARD_ON_SITE';
type PaymentStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';

function event(row: StaffReservationRow, defaultLocale: string) {
  return {
    id: row.show_event_id,
    slug: row.event_slug,
    startsAt: iso(row.event_starts_at)!,
    status: row.event_status as EventStatus,
    show: { code: row.show_code, slug: row.show_slug, title: pickLocale(row.show_title, defaultLocale, defaultLocale) },
  };
}

function customer(row: StaffReservationRow) {
  return {
    id: row.customer_id,
    honorific: row.customer_honorific,
    name: row.customer_name,
    email: row.customer_email,
    phone: row.customer_phone,
    isDeleted: row.customer_is_deleted,
  };
}

/** The contact the reservation was booked with (its own snapshot; the customer record may say otherwise). */
const bookedContact = (row: StaffReservationRow) => ({ honorific: row.contact_honorific, name: row.contact_name, email: row.contact_email, phone: row.contact_phone });

const table = (row: StaffReservationRow) =>
  row.table_id && row.table_code ? { id: row.table_id, code: row.table_code, zone: row.table_zone!, seats: Number(row.table_seats) } : null;

export function presentReservationSummary(row: StaffReservationRow, defaultLocale: string, now: Date) {
  return {
    id: row.id,
    reference: row.reference,
    status: effectiveStatus(row, now),
    guestCount: row.guest_count,
    totalVnd: Number(row.total_vnd),
    event: event(row, defaultLocale),
    offerCode: row.offer_code,
    customer: customer(row),
    bookedContact: bookedContact(row),
    table: table(row),
    createdAt: iso(row.created_at)!,
  };
}

/** What was paid and refunded (SUCCEEDED payments and those refunded since), and what is still due. */
function paymentsSummary(row: StaffReservationRow, payments: PaymentLine[]) {
  const settled = payments.filter((p) => p.status === 'SUCCEEDED' || p.status === 'PARTIALLY_REFUNDED' || p.status === 'REFUNDED');
  const paidVnd = settled.reduce((sum, p) => sum + Number(p.amount_vnd), 0);
  const refundedVnd = settled.reduce((sum, p) => sum + Number(p.refunded_vnd), 0);
  return {
    paidVnd,
    refundedVnd,
    balanceVnd: Number(row.total_vnd) - (paidVnd - refundedVnd),
    items: payments.map((p) => ({
      id: p.id,
      gateway: p.gateway as Gateway,
      status: p.status as PaymentStatus,
      amountVnd: Number(p.amount_vnd),
      refundedVnd: Number(p.refunded_vnd),
      txnRef: p.txn_ref,
      createdAt: iso(p.created_at)!,
      succeededAt: iso(p.succeeded_at),
    })),
  };
}

export function presentStaffReservation(row: StaffReservationRow, payments: PaymentLine[], defaultLocale: string, now: Date) {
  const status = effectiveStatus(row, now);
  return {
    id: row.id,
    reference: row.reference,
    status,
    holdExpiresAt: status === 'HELD' ? iso(row.hold_expires_at) : null,
    guestCount: row.guest_count,
    locale: row.locale,
    event: event(row, defaultLocale),
    offer: { id: row.offer_id, code: row.offer_code, name: pickLocale(row.offer_name, defaultLocale, defaultLocale), bookingPath: row.booking_path },
    customer: customer(row),
    bookedContact: bookedContact(row),
    table: table(row),
    price: {
      currency: 'VND' as const,
      pricePerGuestVnd: Number(row.price_per_guest_vnd),
      subtotalVnd: Number(row.subtotal_vnd),
      promoDiscountVnd: Number(row.promo_discount_vnd),
      referralDiscountVnd: Number(row.referral_discount_vnd),
      discountVnd: Number(row.discount_vnd),
      serviceChargeVnd: Number(row.service_charge_vnd),
      vatVnd: Number(row.vat_vnd),
      voucherCreditVnd: Number(row.voucher_credit_vnd),
      totalVnd: Number(row.total_vnd),
      serviceChargePercent: Number(row.service_charge_percent),
      vatPercent: Number(row.vat_percent),
    },
    attribution: {
      promoCode: row.promo_code,
      voucherCode: row.voucher_code,
      referralCode: row.referral_code,
      referralLinkSlug: row.referral_link_slug,
      referralPartnerSlug: row.referral_partner_slug,
    },
    customerNote: row.customer_note,
    staffNotes: row.staff_notes,
    payments: paymentsSummary(row, payments),
    confirmedAt: iso(row.confirmed_at),
    confirmedBy: row.confirmed_by as 'PAYMENT' | 'STAFF' | 'SYSTEM' | null,
    checkedInAt: iso(row.checked_in_at),
    noShowAt: iso(row.no_show_at),
    expiredAt: iso(row.expired_at),
    cancelledAt: iso(row.cancelled_at),
    cancelledBy: row.cancelled_by as 'GUEST' | 'STAFF' | 'SYSTEM' | null,
    cancellationReason: row.cancellation_reason,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}
