import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';
import type { JoinInput } from './commands/joinWaitlist.ts';
import type { WaitlistEntryView } from './queries.ts';

/** A waiting-list entry as staff see it (allow-list; never the offer token). */
export function presentEntry(entry: WaitlistEntryView): Schema<'WaitlistEntry'> {
  return {
    id: entry.id,
    eventId: entry.showEventId,
    eventSlug: entry.eventSlug,
    eventStartsAt: iso(entry.eventStartsAt)!,
    customerId: entry.customerId,
    name: entry.name,
    email: entry.email,
    phone: entry.phone,
    locale: entry.locale,
    guestCount: entry.guestCount,
    status: entry.status,
    note: entry.note,
    notifiedAt: iso(entry.notifiedAt),
    offerExpiresAt: iso(entry.offerExpiresAt),
    reservationReference: entry.reservationReference ?? null,
    convertedAt: iso(entry.convertedAt),
    expiredAt: iso(entry.expiredAt),
    createdAt: iso(entry.createdAt)!,
    updatedAt: iso(entry.updatedAt)!,
  };
}

/** What a join answers: the request as received, never the stored entry (see the joinWaitlist command). */
export function presentJoinReceipt(input: Pick<JoinInput, 'eventSlug' | 'guestCount'>): Schema<'JoinedWaitlist'> {
  return { eventSlug: input.eventSlug, guestCount: input.guestCount, status: 'WAITING' };
}
