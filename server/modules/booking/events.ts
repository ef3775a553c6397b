import type { Knex } from 'knex';
import { toLocal } from '../../domain/venueTime.ts';
import type { AppContext } from '../../platform/context.ts';
import { reservationEventRow } from './queries.ts';

/**
 * Business events of booking (spec §6.1–6.2): the names, and the properties of one reservation they carry.
 * Property keys are snake_case (PostHog's convention). Allow-listed: never a name, an e-mail, a phone, a note, a
 * token or a payment's gateway ids — only what describes the booking (show, date, amount, path, party size,
 * referral attribution, the reservation's reference).
 *
 * Commands call `captureBusinessEvent` from an after-commit task, so an event exists only for what was saved.
 */
export const BUSINESS_EVENTS = {
  reservationCreated: 'reservation created',
  checkoutStarted: 'checkout started',
  paymentCompleted: 'payment completed',
  paymentFailed: 'payment failed',
  reservationCancelled: 'reservation cancelled',
  refundProcessed: 'refund processed',
  inquirySubmitted: 'inquiry submitted',
  operatorCheckInCompleted: 'operator check-in completed',
} as const;
export type BusinessEvent = (typeof BUSINESS_EVENTS)[keyof typeof BUSINESS_EVENTS];

export interface ReservationEventProperties {
  reservation_reference: string;
  show_code: string;
  show_slug: string;
  /** The event's local date and time in VENUE_TIMEZONE (`2026-12-05`, `19:30`). */
  event_date: string;
  event_time: string;
  amount_vnd: number;
  booking_path: string;
  guest_count: number;
  has_referral: boolean;
  referral_code?: string;
  referral_partner_type?: string;
  referral_channel?: string;
  referral_discount_vnd?: number;
  [extra: string]: unknown;
}

/** The reservation's event properties and the distinct id to send them under (the guest's analytics id, else the reference). */
export async function reservationEventSubject(knex: Knex, reservationId: string, timezone: string): Promise<{ distinctId: string; properties: ReservationEventProperties } | undefined> {
  const row = await reservationEventRow(knex, reservationId);
  if (!row) return undefined;
  const local = toLocal(new Date(row.startsAt), timezone);
  const properties: ReservationEventProperties = {
    reservation_reference: row.reference,
    show_code: row.showCode,
    show_slug: row.showSlug,
    event_date: local.date,
    event_time: local.time,
    amount_vnd: row.totalVnd,
    booking_path: row.bookingPath,
    guest_count: row.guestCount,
    has_referral: row.referralCode !== null,
    ...(row.referralCode !== null ? { referral_code: row.referralCode } : {}),
    ...(row.referralPartnerType !== null ? { referral_partner_type: row.referralPartnerType, referral_discount_vnd: row.referralDiscountVnd } : {}),
    ...(row.referralChannel !== null ? { referral_channel: row.referralChannel } : {}),
  };
  return { distinctId: row.analyticsDistinctId ?? `reservation:${row.reference}`, properties };
}

/**
 * Sends `event` for one reservation with its properties and `extra` (e.g. `payment_gateway`, `payment_status`).
 * Reads after the commit, outside the command's transaction; does nothing at all when analytics is off.
 *
 * Never rejects (issue 32 §4): it runs after its command committed, when the command has succeeded whatever
 * happens here, so a failure (the read, the metrics, the analytics client) is logged with the event's name and the
 * reservation, and the caller's answer stays the success it is. A caller awaiting it outside any after-commit
 * list (the guest's hold) is guarded by this alone.
 */
export async function captureBusinessEvent(app: AppContext, event: BusinessEvent, reservationId: string, extra: Record<string, unknown> = {}): Promise<void> {
  try {
    // The business counters of /metrics where no domain event exists (holds created, check-ins): server/modules/system/metrics.ts.
    app.venueMetrics?.businessEvent(event, extra);
    if (!app.analytics.enabled) return;
    const subject = await reservationEventSubject(app.db.knex, reservationId, app.config.venueTimezone);
    if (!subject) return;
    app.analytics.capture({ distinctId: subject.distinctId, event, properties: { ...subject.properties, ...extra } });
  } catch (err) {
    app.logger.error({ err, event, reservationId }, 'a business event was not sent (after its command committed)');
  }
}
