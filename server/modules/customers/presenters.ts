import { pickLocale } from '../../domain/localized.ts';
import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';
import type { Customer, CustomerEmail } from '../booking/index.ts';
import type { CustomerBooking } from './queries.ts';

export function presentCustomer(customer: Customer): Schema<'Customer'> {
  return {
    id: customer.id,
    honorific: customer.honorific,
    name: customer.name,
    email: customer.email,
    phone: customer.phone,
    locale: customer.locale,
    isDeleted: customer.isDeleted,
    deletedAt: iso(customer.deletedAt),
    createdAt: iso(customer.createdAt)!,
    updatedAt: iso(customer.updatedAt)!,
  };
}

export function presentCustomerBooking(booking: CustomerBooking, defaultLocale: string): Schema<'CustomerBooking'> {
  return {
    id: booking.id,
    reference: booking.reference,
    status: booking.status as Schema<'ReservationStatus'>,
    eventSlug: booking.eventSlug,
    eventStartsAt: iso(booking.eventStartsAt)!,
    showTitle: pickLocale(booking.showTitle, defaultLocale, defaultLocale),
    guestCount: booking.guestCount,
    totalVnd: booking.totalVnd,
    bookedContact: { honorific: booking.contactHonorific, name: booking.contactName, email: booking.contactEmail, phone: booking.contactPhone },
    createdAt: iso(booking.createdAt)!,
  };
}

export function presentCustomerEmail(address: Pick<CustomerEmail, 'email' | 'firstSeenAt' | 'lastSeenAt'>): Schema<'CustomerEmailAddress'> {
  return { email: address.email, firstSeenAt: iso(address.firstSeenAt)!, lastSeenAt: iso(address.lastSeenAt)! };
}

export function presentCustomerDetail(
  detail: { customer: Customer; bookings: CustomerBooking[]; bookingsTotal: number; emails: CustomerEmail[] },
  defaultLocale: string,
): Schema<'CustomerDetail'> {
  return {
    customer: presentCustomer(detail.customer),
    bookings: detail.bookings.map((booking) => presentCustomerBooking(booking, defaultLocale)),
    bookingsTotal: detail.bookingsTotal,
    emails: detail.emails.map(presentCustomerEmail),
  };
}
