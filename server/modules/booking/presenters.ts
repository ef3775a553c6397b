import { pickLocale } from '../../domain/localized.ts';
import type { Schema } from '../../platform/http/handler.ts';
import { instructionsLocale, PAY_LATER_INSTRUCTIONS, payLaterState } from './payLater.ts';
import type { GuestMoney, ReservationDetails } from './queries.ts';
import { cancellableUntil, statusAt, type ReservationStatus } from './status.ts';

export interface GuestPresentation {
  defaultLocale: string;
  siteLocales: readonly string[];
  cancellationWindowHours: number;
  now: Date;
  /** The text's locale asked for (`?locale=`); default the reservation's own. */
  textLocale?: string;
  /** The venue's bank account (BANK_TRANSFER_*), shown with a transfer the guest still owes. */
  bankAccount?: { accountName: string; accountNumber: string; bankName: string };
}

/** The locale a guest answer's text is in: the one asked for when the site has it, else the reservation's, else the default. */
export function guestTextLocale(reservationLocale: string | null, p: Pick<GuestPresentation, 'siteLocales' | 'defaultLocale' | 'textLocale'>): string {
  const asked = p.textLocale?.toLowerCase().split('-')[0];
  if (asked && p.siteLocales.includes(asked)) return asked;
  if (p.textLocale) return p.defaultLocale;
  return reservationLocale && p.siteLocales.includes(reservationLocale) ? reservationLocale : p.defaultLocale;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * One reservation as its guest sees it (allow-list): its own contact, the event and offer it is for, the price
 * breakdown and what the guest may still do. Never staff notes, the table, analytics ids, other guests or ids
 * of internal rows; the access token only in the creation answer (added by the command).
 */
export function presentGuestReservation(reservation: ReservationDetails, money: GuestMoney, p: GuestPresentation): Schema<'GuestReservation'> {
  const r = reservation;
  const ownLocale = r.locale && p.siteLocales.includes(r.locale) ? r.locale : p.defaultLocale;
  const locale = guestTextLocale(r.locale, p);
  const status = statusAt(r, p.now);
  const until = cancellableUntil(r.eventStartsAt, p.cancellationWindowHours);
  const payment = presentGuestPayment(Number(r.totalVnd), status, money);
  return {
    reference: r.reference,
    status,
    holdExpiresAt: status === 'HELD' ? iso(r.holdExpiresAt) : null,
    guestCount: r.guestCount,
    locale: ownLocale,
    customerNote: r.customerNote,
    // The reservation's own snapshot: what this guest booked with, never the customer record.
    contact: { honorific: r.contactHonorific, name: r.contactName, email: r.contactEmail, phone: r.contactPhone },
    event: {
      slug: r.eventSlug,
      startsAt: iso(r.eventStartsAt)!,
      doorsAt: iso(r.eventDoorsAt),
      status: r.eventStatus,
      show: { slug: r.showSlug, code: r.showCode, title: pickLocale(r.showTitle, locale, p.defaultLocale) },
    },
    offer: { code: r.offerCode, name: pickLocale(r.offerName, locale, p.defaultLocale), bookingPath: r.bookingPath },
    price: {
      currency: 'VND' as const,
      pricePerGuestVnd: r.pricePerGuestVnd,
      subtotalVnd: r.subtotalVnd,
      discountVnd: r.discountVnd,
      serviceChargeVnd: r.serviceChargeVnd,
      vatVnd: r.vatVnd,
      voucherCreditVnd: r.voucherCreditVnd,
      totalVnd: r.totalVnd,
      serviceChargePercent: Number(r.serviceChargePercent),
      vatPercent: Number(r.vatPercent),
    },
    payment,
    payLater: presentGuestPayLater(r, status, payment.dueVnd, money, locale, p.bankAccount),
    refunds: money.refunds.map((refund) => ({
      amountVnd: Number(refund.amountVnd),
      status: refund.status as 'PENDING' | 'SUCCEEDED' | 'FAILED',
      requestedAt: iso(refund.createdAt)!,
      completedAt: iso(refund.completedAt),
    })),
    attribution: { promoCode: r.promoCode, voucherCode: r.voucherCode, referralCode: r.referralCode },
    cancellableUntil: until.toISOString(),
    canCancel: (status === 'HELD' || status === 'CONFIRMED') && p.now < until,
    createdAt: iso(r.createdAt)!,
    cancelledAt: iso(r.cancelledAt),
  };
}

const SETTLED = ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
const OWING: readonly ReservationStatus[] = ['HELD', 'CONFIRMED', 'CHECKED_IN'];
type Gateway = 'VNPAY' | 'BANK_TRANSFER' | 'CASH' | 'CARD_ON_SITE';

/**
 * What was paid, refunded and is still due, and the one word a guest reads first (the contract's `GuestPayment`):
 * refunds first (they are the latest news), then what was paid against what is owed, then a payment in progress.
 */
export function presentGuestPayment(totalVnd: number, status: ReservationStatus, money: GuestMoney): Schema<'GuestPayment'> {
  const settled = money.payments.filter((payment) => SETTLED.includes(payment.status));
  const paidVnd = settled.reduce((sum, payment) => sum + Number(payment.amountVnd), 0);
  const refundedVnd = settled.reduce((sum, payment) => sum + Number(payment.refundedVnd), 0);
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

/**
 * What paying later left outstanding (issue 34 §1, ./payLater.ts), as the contract's `GuestPayLater`: the transfer
 * with its deadline and the venue's account and the reference to quote (the pending transfer payment's), staff's
 * approval with its deadline, or the amount due at the door; null when nothing is.
 */
export function presentGuestPayLater(
  r: Pick<ReservationDetails, 'payLaterMethod' | 'holdExpiresAt'>,
  status: ReservationStatus,
  dueVnd: number,
  money: GuestMoney,
  locale: string,
  bankAccount: GuestPresentation['bankAccount'],
): Schema<'GuestPayLater'> | null {
  const state = payLaterState(status, r.payLaterMethod ?? null, dueVnd);
  if (!state || dueVnd <= 0) return null;
  const language = instructionsLocale(locale);
  const transfer = money.payments.filter((payment) => payment.gateway === 'BANK_TRANSFER' && payment.status === 'PENDING').at(-1);
  return {
    state,
    method: r.payLaterMethod ?? null,
    amountDueVnd: dueVnd,
    deadline: status === 'HELD' ? iso(r.holdExpiresAt) : null,
    instructions: PAY_LATER_INSTRUCTIONS[state][language],
    instructionsLocale: language,
    bankTransfer: state === 'AWAITING_TRANSFER' && bankAccount && transfer ? { account: { ...bankAccount }, transferReference: transfer.txnRef } : null,
  };
}
