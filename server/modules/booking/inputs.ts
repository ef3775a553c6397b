import type { AnalyticsIds, Contact } from '../../domain/bookingExtensions.ts';

/**
 * What a booking is made with: the contact, a lead, a hold (the guest's and staff's requests as the commands take
 * them). The hold and its contact, which other modules' extensions see, live in server/domain/bookingExtensions.ts.
 */
export type { AnalyticsIds, Contact, HoldInput } from '../../domain/bookingExtensions.ts';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The contact a booking, lead or join was made with, as the guest's answers show it (its own snapshot). */
export interface CustomerContact {
  id: string;
  honorific: string | null;
  name: string;
  email: string;
  phone: string | null;
}

/**
 * Who supplies a contact: a guest (anonymous: the public routes) never changes an existing customer — what it
 * typed is kept on its own row (the reservation's, the lead's, the entry's snapshot) as that customer's contact
 * history; staff (a phone booking, the CRM) edit the record.
 */
export type ContactSource = 'guest' | 'staff';

export interface LeadInput extends Contact {
  eventSlug?: string;
  bookingPath?: string;
  guestCount?: number;
  experienceType?: string;
  analytics?: AnalyticsIds;
}
