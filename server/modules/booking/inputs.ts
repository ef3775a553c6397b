/** What a booking is made with: the contact, a lead, a hold (the guest's and staff's requests as the commands take them). */

export interface Contact {
  honorific?: string;
  name: string;
  email: string;
  phone?: string;
  locale?: string;
}

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

export interface AnalyticsIds {
  sessionId?: string;
  distinctId?: string;
  localSessionId?: string;
}

export interface LeadInput extends Contact {
  eventSlug?: string;
  bookingPath?: string;
  guestCount?: number;
  experienceType?: string;
  analytics?: AnalyticsIds;
}

export interface HoldInput {
  eventSlug: string;
  offerCode: string;
  guestCount: number;
  leadReference?: string;
  contact?: Contact;
  customerNote?: string;
  locale?: string;
  analytics?: AnalyticsIds;
  promoCode?: string;
  voucherCode?: string;
  /** The waiting list's offer link token (server/modules/waitlist): books the seats its offer holds. */
  waitlistToken?: string;
  referral?: { code?: string; linkSlug?: string; partnerSlug?: string; attributionToken?: string };
}
