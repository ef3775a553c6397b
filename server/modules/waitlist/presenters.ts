import { iso } from '../presenting.ts';
import type { WaitlistRow } from './service.ts';

/** A waiting-list entry as staff see it (allow-list; never the offer token). */
export function presentEntry(row: WaitlistRow) {
  return {
    id: row.id,
    eventId: row.show_event_id,
    eventSlug: row.event_slug,
    eventStartsAt: iso(row.event_starts_at)!,
    customerId: row.customer_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    locale: row.locale,
    guestCount: row.guest_count,
    status: row.status,
    note: row.note,
    notifiedAt: iso(row.notified_at),
    offerExpiresAt: iso(row.offer_expires_at),
    reservationReference: row.reservation_reference ?? null,
    convertedAt: iso(row.converted_at),
    expiredAt: iso(row.expired_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}
