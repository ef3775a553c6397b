import type { Schema } from '../../platform/http/handler.ts';
import { pickLocale } from '../../domain/localized.ts';
import { toLocal } from '../../domain/venueTime.ts';
import { iso } from '../presenting.ts';
import { statusAt } from '../booking/index.ts';
import type { CheckIn } from './models.ts';
import type { DoorReservation } from './queries.ts';

export interface PresentOptions {
  defaultLocale: string;
  venueTimezone: string;
  now: Date;
}

/**
 * The reservation as the door needs it: an allow-list (no customer note, no token). The guest is who the booking was
 * made for: the contact on the reservation itself (issue 32 §4.3: a stranger who books with someone's e-mail
 * appears at the door under the name they typed, never under the name of the CRM record that e-mail belongs to).
 * The CRM record is beside it, as `crmCustomer`, for staff to compare (every caller of the door is staff).
 */
export function presentDoorReservation(row: DoorReservation, options: PresentOptions): Schema<'CheckInReservation'> {
  const { defaultLocale } = options;
  const startsAt = new Date(row.eventStartsAt);
  const local = toLocal(startsAt, options.venueTimezone);
  return {
    id: row.id,
    reference: row.reference,
    status: statusAt(row, options.now),
    guestName: [row.contactHonorific, row.contactName].filter(Boolean).join(' '),
    bookedContact: { honorific: row.contactHonorific, name: row.contactName, email: row.contactEmail, phone: row.contactPhone },
    crmCustomer: {
      id: row.customerId,
      honorific: row.customerHonorific,
      name: row.customerName,
      email: row.customerEmail,
      phone: row.customerPhone,
      isDeleted: row.customerIsDeleted,
    },
    partySize: row.guestCount,
    offer: { id: row.offerId, code: row.offerCode, name: pickLocale(row.offerName, defaultLocale, defaultLocale) },
    table: row.tableId ? { id: row.tableId, code: row.tableCode!, zone: row.tableZone! } : null,
    event: {
      id: row.showEventId,
      slug: row.eventSlug,
      status: row.eventStatus,
      startsAt: startsAt.toISOString(),
      doorsAt: iso(row.eventDoorsAt),
      localDate: local.date,
      localTime: local.time,
      showCode: row.showCode,
      showTitle: pickLocale(row.showTitle, defaultLocale, defaultLocale),
    },
    confirmedBy: row.confirmedBy,
    checkedInAt: iso(row.checkedInAt),
    payment: { paid: row.paid, totalVnd: row.totalVnd, paidVnd: row.paidVnd, dueVnd: Math.max(0, row.totalVnd - row.paidVnd), payLaterMethod: row.payLaterMethod },
    staffNotes: row.staffNotes,
  };
}

export function presentCheckIn(checkIn: CheckIn): Schema<'CheckInRecord'> {
  return {
    id: checkIn.id,
    nonce: checkIn.nonce,
    type: checkIn.type,
    result: checkIn.result,
    reason: checkIn.reason,
    identifiedBy: checkIn.identifiedBy,
    reservationId: checkIn.reservationId,
    showEventId: checkIn.showEventId,
    operator: checkIn.operator,
    at: iso(checkIn.createdAt)!,
  };
}
