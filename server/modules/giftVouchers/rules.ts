import { randomInt } from 'node:crypto';
import { DateTime } from 'luxon';
import { addDays, atLocal, localToday, startOfLocalDay } from '../../domain/venueTime.ts';
import type { GiftVoucherOrder, GiftVoucherOrderStatus } from './models.ts';

/** Pure rules of gift-voucher orders (issue 36 §1): references, deadlines, the voucher's expiry, the delivery time. */

/** How long a new order waits for its payment. */
export const ORDER_PAY_MINUTES = 60;
/** The latest delivery date, in days from today (venue time). */
export const MAX_DELIVERY_DAYS_AHEAD = 365;
/** The recipient's e-mail goes out at this local time on the delivery date (at once when that has passed). */
export const DELIVERY_TIME = '08:00';

/** No 0/O, 1/I/L: `GO-XXXXXXXX`. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const newOrderReference = (): string => `GO-${Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`;
export const normalizeOrderReference = (raw: string): string => raw.trim().toUpperCase();

/** The status a reader sees: a PENDING order past its deadline is EXPIRED, whether or not anyone wrote it. */
export function effectiveOrderStatus(order: Pick<GiftVoucherOrder, 'status' | 'payBy'>, now: Date): GiftVoucherOrderStatus {
  return order.status === 'PENDING' && new Date(order.payBy) <= now ? 'EXPIRED' : order.status;
}

/** Whether `date` (`YYYY-MM-DD`) is a delivery date the buyer may choose at `now`: today .. today + 365 days, venue time. */
export function deliveryDateAllowed(date: string, zone: string, now: Date): boolean {
  const today = localToday(zone, now);
  return date >= today && date <= addDays(today, MAX_DELIVERY_DAYS_AHEAD) && DateTime.fromISO(date, { zone: 'UTC' }).isValid;
}

/** A voucher sold at `paidAt` is valid through the same calendar day `months` later (venue time). */
export function voucherExpiry(paidAt: Date, months: number, zone: string): Date {
  const lastDay = DateTime.fromJSDate(paidAt, { zone }).plus({ months }).toISODate()!;
  return startOfLocalDay(addDays(lastDay, 1), zone);
}

/** When the recipient's e-mail is due: 08:00 on the delivery date (venue time); undefined = now (today, or past). */
export function deliveryStart(deliveryDate: string, zone: string, now: Date): Date | undefined {
  const at = atLocal(deliveryDate, DELIVERY_TIME, zone);
  return deliveryDate > localToday(zone, now) && at > now ? at : undefined;
}

/** Whether `amountVnd` is one the venue sells: a listed amount, or within the free bounds. */
export function amountOffered(amountVnd: number, terms: { amountsVnd: readonly number[]; minVnd: number | null; maxVnd: number | null }): boolean {
  if (terms.amountsVnd.includes(amountVnd)) return true;
  return terms.minVnd !== null && terms.maxVnd !== null && amountVnd >= terms.minVnd && amountVnd <= terms.maxVnd;
}
