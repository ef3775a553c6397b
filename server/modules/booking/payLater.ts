import type { DeferredMethod, PayLaterOffer, PayLaterTerms } from '../../domain/payables.ts';
import type { ReservationStatus } from './status.ts';

/**
 * Paying later never loses the seats (issue 34 §1; DOMAIN.md "Booking", payment row): what choosing to pay at the
 * venue or by bank transfer does to a reservation, by the commercial setup's rules (pure; the reads are
 * queries.ts `payLaterRules`, the write is payable.ts `deferPayment`).
 *
 * - Pay at the venue: the booking is confirmed at once, the amount due at the door — for a party of at most
 *   `payAtVenueMaxGuests` and a performance at most `payAtVenueMaxDaysAhead` × 24 h away (null: no cap). Above a cap
 *   the setup's `payAtVenueOverLimit` says: `REFUSE` (422 `pay_at_venue_over_limit`, the guest pays another way) or
 *   `STAFF_APPROVAL` (the seats stay held `payAtVenueApprovalHours` from the booking for staff to confirm, else the
 *   hold lapses as any other).
 * - Bank transfer: the seats stay held `bankTransferHoldHours` from the booking while the transfer arrives.
 *
 * A deadline counts from the booking (`createdAt`), not from the choice, so choosing again (or switching between
 * the two) never keeps the seats longer; it is never past the booking cut-off and never shorter than the hold
 * already is.
 */

export type PayLaterMethod = DeferredMethod;

/** The setup's rules and the event's start, as `payLaterRules` reads them. */
export interface PayLaterRules {
  eventStartsAt: Date;
  bookingCutoffMinutes: number;
  payAtVenueMaxGuests: number | null;
  payAtVenueMaxDaysAhead: number | null;
  payAtVenueOverLimit: 'REFUSE' | 'STAFF_APPROVAL';
  payAtVenueApprovalHours: number;
  bankTransferHoldHours: number;
  bankTransferReminderHours: number;
}

/** What of a reservation its terms depend on. */
export interface PayLaterSubject {
  guestCount: number;
  createdAt: Date;
  holdExpiresAt: Date | null;
}

const HOUR = 3_600_000;

/** What the guest is told, by outcome, in the two languages the venue writes (other site locales read English). */
export const PAY_LATER_INSTRUCTIONS: Record<'DUE_AT_VENUE' | 'AWAITING_APPROVAL' | 'AWAITING_TRANSFER', { en: string; vi: string }> = {
  DUE_AT_VENUE: {
    en: 'Your booking is confirmed. Please pay the amount due in cash or by card at the box office when you arrive, quoting your reservation reference.',
    vi: 'Đặt chỗ của quý khách đã được xác nhận. Vui lòng thanh toán số tiền còn lại bằng tiền mặt hoặc thẻ tại quầy vé khi đến, kèm mã đặt chỗ.',
  },
  AWAITING_APPROVAL: {
    en: 'Paying at the venue for this booking needs the venue’s approval. Your seats are held until the deadline while our staff review it; once it is approved you receive a confirmation e-mail and pay at the box office when you arrive.',
    vi: 'Thanh toán tại quầy cho đặt chỗ này cần được nhà hát chấp thuận. Chỗ của quý khách được giữ đến hạn trong lúc nhân viên xem xét; khi được chấp thuận, quý khách sẽ nhận e-mail xác nhận và thanh toán tại quầy vé khi đến.',
  },
  AWAITING_TRANSFER: {
    en: 'Transfer the amount due to the venue’s account below, with the transfer reference in the transfer’s description. Your seats are held until the deadline; your booking is confirmed, by e-mail, as soon as the transfer has arrived.',
    vi: 'Vui lòng chuyển khoản số tiền cần thanh toán vào tài khoản của nhà hát dưới đây, ghi mã chuyển khoản trong nội dung chuyển khoản. Chỗ của quý khách được giữ đến hạn thanh toán; đặt chỗ được xác nhận, kèm e-mail, ngay khi nhận được tiền.',
  },
};

/** The latest a kept hold may last: the booking cut-off, but never shorter than the hold already is. */
function keptUntil(subject: PayLaterSubject, rules: PayLaterRules, hours: number): Date {
  const cutoff = new Date(rules.eventStartsAt).getTime() - rules.bookingCutoffMinutes * 60_000;
  const wanted = Math.min(new Date(subject.createdAt).getTime() + hours * HOUR, cutoff);
  const current = subject.holdExpiresAt ? new Date(subject.holdExpiresAt).getTime() : 0;
  return new Date(Math.max(wanted, current));
}

/** The caps of paying at the venue this booking is over, in words (empty: none). */
export function payAtVenueOverCaps(subject: PayLaterSubject, rules: PayLaterRules, now: Date): string[] {
  const over: string[] = [];
  if (rules.payAtVenueMaxGuests !== null && subject.guestCount > rules.payAtVenueMaxGuests) over.push(`parties of up to ${rules.payAtVenueMaxGuests} guests`);
  if (rules.payAtVenueMaxDaysAhead !== null && new Date(rules.eventStartsAt).getTime() - now.getTime() > rules.payAtVenueMaxDaysAhead * 24 * HOUR) {
    over.push(`performances up to ${rules.payAtVenueMaxDaysAhead} days ahead`);
  }
  return over;
}

/** What choosing `method` now would do to the reservation (`PayableState.payLater`). */
export function payLaterTerms(method: PayLaterMethod, subject: PayLaterSubject, rules: PayLaterRules, now: Date): PayLaterOffer {
  if (method === 'BANK_TRANSFER') {
    return { terms: { outcome: 'AWAITING_PAYMENT', payBy: keptUntil(subject, rules, rules.bankTransferHoldHours), instructions: PAY_LATER_INSTRUCTIONS.AWAITING_TRANSFER } };
  }
  const over = payAtVenueOverCaps(subject, rules, now);
  if (over.length === 0) return { terms: { outcome: 'CONFIRMED', payBy: null, instructions: PAY_LATER_INSTRUCTIONS.DUE_AT_VENUE } };
  if (rules.payAtVenueOverLimit === 'REFUSE') {
    return {
      refusal: {
        code: 'pay_at_venue_over_limit',
        detail: `Paying at the venue is for ${over.join(' and ')}; pay online or by bank transfer, or contact the venue.`,
      },
    };
  }
  return { terms: { outcome: 'AWAITING_APPROVAL', payBy: keptUntil(subject, rules, rules.payAtVenueApprovalHours), instructions: PAY_LATER_INSTRUCTIONS.AWAITING_APPROVAL } };
}

/** When the transfer reminder is due (the setup's hours before the deadline), or null: none, or its moment has passed. */
export function transferReminderAt(terms: PayLaterTerms, rules: Pick<PayLaterRules, 'bankTransferReminderHours'>, now: Date): Date | null {
  if (terms.outcome !== 'AWAITING_PAYMENT' || !terms.payBy || rules.bankTransferReminderHours <= 0) return null;
  const at = new Date(terms.payBy.getTime() - rules.bankTransferReminderHours * HOUR);
  return at > now ? at : null;
}

/** A reservation's pay-later state as its guest reads it (the contract's `GuestPayLater.state`), or null. */
export type GuestPayLaterState = keyof typeof PAY_LATER_INSTRUCTIONS;

/**
 * Where paying later stands for the guest: still held for staff's approval or for the transfer (with the deadline:
 * the hold's end), or confirmed with money still due at the venue; null when nothing is outstanding.
 */
export function payLaterState(status: ReservationStatus, method: PayLaterMethod | null, dueVnd: number): GuestPayLaterState | null {
  if (status === 'HELD' && method === 'PAY_AT_VENUE') return 'AWAITING_APPROVAL';
  if (status === 'HELD' && method === 'BANK_TRANSFER') return 'AWAITING_TRANSFER';
  if ((status === 'CONFIRMED' || status === 'CHECKED_IN') && dueVnd > 0) return 'DUE_AT_VENUE';
  return null;
}

/** `en` or `vi`: the language of the instructions for a site locale (`vi…` → `vi`, anything else `en`). */
export const instructionsLocale = (locale: string | null | undefined): 'en' | 'vi' => ((locale ?? '').toLowerCase().startsWith('vi') ? 'vi' : 'en');
