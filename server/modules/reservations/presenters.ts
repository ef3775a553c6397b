import { pickLocale } from '../../domain/localized.ts';
import type { Schema } from '../../platform/http/handler.ts';
import { statusAt } from '../booking/index.ts';
import { iso } from '../presenting.ts';
import type { PaymentLine, StaffReservationDetails } from './queries.ts';

/**
 * Reservations as staff see them (allow-lists). Never the access token, the check-in token or their hashes, nor
 * the analytics ids; titles and names in the default locale.
 */

type EventStatus = 'SCHEDULED' | 'CANCELLED' | 'COMPLETED';
type Gateway = 'VNPAY' | 'BANK_TRANSFER' | 'CASH' | 'CARD_ON_SITE';
type PaymentStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';

function event(row: StaffReservationDetails, defaultLocale: string) {
  return {
    id: row.showEventId,
    slug: row.eventSlug,
    startsAt: iso(row.eventStartsAt)!,
    status: row.eventStatus as EventStatus,
    show: { code: row.showCode, slug: row.showSlug, title: pickLocale(row.showTitle, defaultLocale, defaultLocale) },
  };
}

function customer(row: StaffReservationDetails) {
  return {
    id: row.customerId,
    honorific: row.customerHonorific,
    name: row.customerName,
    email: row.customerEmail,
    phone: row.customerPhone,
    isDeleted: row.customerIsDeleted,
  };
}

/** The contact the reservation was booked with (its own snapshot; the customer record may say otherwise). */
const bookedContact = (row: StaffReservationDetails) => ({ honorific: row.contactHonorific, name: row.contactName, email: row.contactEmail, phone: row.contactPhone });

const table = (row: StaffReservationDetails) =>
  row.tableId && row.tableCode ? { id: row.tableId, code: row.tableCode, zone: row.tableZone!, seats: Number(row.tableSeats) } : null;

export function presentReservationSummary(row: StaffReservationDetails, defaultLocale: string, now: Date): Schema<'ReservationSummary'> {
  return {
    id: row.id,
    reference: row.reference,
    status: statusAt(row, now),
    guestCount: row.guestCount,
    totalVnd: Number(row.totalVnd),
    event: event(row, defaultLocale),
    offerCode: row.offerCode,
    customer: customer(row),
    bookedContact: bookedContact(row),
    table: table(row),
    createdAt: iso(row.createdAt)!,
  };
}

/** What was paid and refunded (SUCCEEDED payments and those refunded since), and what is still due. */
function paymentsSummary(row: StaffReservationDetails, payments: PaymentLine[]): Schema<'ReservationPayments'> {
  const settled = payments.filter((p) => p.status === 'SUCCEEDED' || p.status === 'PARTIALLY_REFUNDED' || p.status === 'REFUNDED');
  const paidVnd = settled.reduce((sum, p) => sum + Number(p.amountVnd), 0);
  const refundedVnd = settled.reduce((sum, p) => sum + Number(p.refundedVnd), 0);
  return {
    paidVnd,
    refundedVnd,
    balanceVnd: Number(row.totalVnd) - (paidVnd - refundedVnd),
    items: payments.map((p) => ({
      id: p.id,
      gateway: p.gateway as Gateway,
      status: p.status as PaymentStatus,
      amountVnd: Number(p.amountVnd),
      refundedVnd: Number(p.refundedVnd),
      txnRef: p.txnRef,
      createdAt: iso(p.createdAt)!,
      succeededAt: iso(p.succeededAt),
    })),
  };
}

export function presentStaffReservation(row: StaffReservationDetails, payments: PaymentLine[], defaultLocale: string, now: Date): Schema<'StaffReservation'> {
  const status = statusAt(row, now);
  return {
    id: row.id,
    reference: row.reference,
    status,
    holdExpiresAt: status === 'HELD' ? iso(row.holdExpiresAt) : null,
    guestCount: row.guestCount,
    locale: row.locale,
    event: event(row, defaultLocale),
    offer: { id: row.offerId, code: row.offerCode, name: pickLocale(row.offerName, defaultLocale, defaultLocale), bookingPath: row.bookingPath },
    customer: customer(row),
    bookedContact: bookedContact(row),
    table: table(row),
    price: {
      currency: 'VND' as const,
      pricePerGuestVnd: Number(row.pricePerGuestVnd),
      subtotalVnd: Number(row.subtotalVnd),
      promoDiscountVnd: Number(row.promoDiscountVnd),
      referralDiscountVnd: Number(row.referralDiscountVnd),
      discountVnd: Number(row.discountVnd),
      serviceChargeVnd: Number(row.serviceChargeVnd),
      vatVnd: Number(row.vatVnd),
      voucherCreditVnd: Number(row.voucherCreditVnd),
      totalVnd: Number(row.totalVnd),
      serviceChargePercent: Number(row.serviceChargePercent),
      vatPercent: Number(row.vatPercent),
    },
    attribution: {
      promoCode: row.promoCode,
      voucherCode: row.voucherCode,
      referralCode: row.referralCode,
      referralLinkSlug: row.referralLinkSlug,
      referralPartnerSlug: row.referralPartnerSlug,
    },
    customerNote: row.customerNote,
    staffNotes: row.staffNotes,
    payments: paymentsSummary(row, payments),
    payLaterMethod: row.payLaterMethod ?? null,
    confirmedAt: iso(row.confirmedAt),
    confirmedBy: row.confirmedBy as 'PAYMENT' | 'STAFF' | 'SYSTEM' | null,
    checkedInAt: iso(row.checkedInAt),
    noShowAt: iso(row.noShowAt),
    expiredAt: iso(row.expiredAt),
    cancelledAt: iso(row.cancelledAt),
    cancelledBy: row.cancelledBy as 'GUEST' | 'STAFF' | 'SYSTEM' | null,
    cancellationReason: row.cancellationReason,
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
  };
}
