import { pickLocale } from '../../domain/localized.ts';
import { toLocal } from '../../domain/venueTime.ts';
import { iso } from '../presenting.ts';
import { effectiveStatus } from '../booking/index.ts';
import type { CheckInRow, DoorRow } from './service.ts';

export interface PresentOptions {
  defaultLocale: string;
  venueTimezone: string;
  now: Date;
}

/** The reservation as the door needs it: an allow-list (no e-mail, phone, customer note or token). */
export function presentDoorReservation(row: DoorRow, options: PresentOptions) {
  const { defaultLocale } = options;
  const startsAt = new Date(row.event_starts_at);
  const local = toLocal(startsAt, options.venueTimezone);
  return {
    id: row.id,
    reference: row.reference,
    status: effectiveStatus(row, options.now),
    guestName: [row.customer_honorific, row.customer_name].filter(Boolean).join(' '),
    partySize: row.guest_count,
    offer: { id: row.offer_id, code: row.offer_code, name: pickLocale(row.offer_name, defaultLocale, defaultLocale) },
    table: row.table_id ? { id: row.table_id, code: row.table_code!, zone: row.table_zone! } : null,
    event: {
      id: row.show_event_id,
      slug: row.event_slug,
      status: row.event_status,
      startsAt: startsAt.toISOString(),
      doorsAt: iso(row.event_doors_at),
      localDate: local.date,
      localTime: local.time,
      showCode: row.show_code,
      showTitle: pickLocale(row.show_title, defaultLocale, defaultLocale),
    },
    confirmedBy: row.confirmed_by,
    checkedInAt: iso(row.checked_in_at),
    payment: { paid: row.paid, totalVnd: row.total_vnd, paidVnd: row.paid_vnd, dueVnd: Math.max(0, row.total_vnd - row.paid_vnd) },
    staffNotes: row.staff_notes,
  };
}

export function presentCheckIn(row: CheckInRow) {
  return {
    id: row.id,
    nonce: row.nonce,
    type: row.type,
    result: row.result,
    reason: row.reason,
    identifiedBy: row.identified_by,
    reservationId: row.reservation_id,
    showEventId: row.show_event_id,
    operator: row.operator,
    at: iso(row.created_at)!,
  };
}
