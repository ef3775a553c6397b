import { pickLocale } from '../../domain/localized.ts';
import { iso } from '../presenting.ts';
import type { CustomerBookingRow, CustomerEmailRow, CustomerRow } from './service.ts';

export function presentCustomer(row: CustomerRow) {
  return {
    id: row.id,
    honorific: row.honorific,
    name: row.name,
    email: row.email,
    phone: row.phone,
    locale: row.locale,
    isDeleted: row.is_deleted,
    deletedAt: iso(row.deleted_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

export function presentCustomerBooking(row: CustomerBookingRow, defaultLocale: string) {
  return {
    id: row.id,
    reference: row.reference,
    status: row.status as 'HELD' | 'CONFIRMED' | 'CHECKED_IN' | 'CANCELLED' | 'EXPIRED' | 'NO_SHOW',
    eventSlug: row.event_slug,
    eventStartsAt: iso(row.event_starts_at)!,
    showTitle: pickLocale(row.show_title, defaultLocale, defaultLocale),
    guestCount: row.guest_count,
    totalVnd: Number(row.total_vnd),
    bookedContact: { honorific: row.contact_honorific, name: row.contact_name, email: row.contact_email, phone: row.contact_phone },
    createdAt: iso(row.created_at)!,
  };
}

export function presentCustomerEmail(row: CustomerEmailRow) {
  return { email: row.email, firstSeenAt: iso(row.first_seen_at)!, lastSeenAt: iso(row.last_seen_at)! };
}
