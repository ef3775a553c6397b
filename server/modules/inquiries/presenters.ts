import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';
import type { Inquiry, InquiryFollowUp } from './models.ts';

const day = (value: string | Date | null): string | null => {
  if (value === null) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  // A `date` column read as a Date is midnight local time of the server process: format it back the same way.
  return `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, '0')}-${String(value.getDate()).padStart(2, '0')}`;
};

/** An inquiry as staff see it (allow-list). */
export function presentInquiry(inquiry: Inquiry): Schema<'Inquiry'> {
  return {
    id: inquiry.id,
    type: inquiry.type,
    status: inquiry.status,
    customerId: inquiry.customerId,
    name: inquiry.name,
    email: inquiry.email,
    phone: inquiry.phone,
    locale: inquiry.locale,
    preferredDate: day(inquiry.preferredDate),
    guestCount: inquiry.guestCount,
    message: inquiry.message,
    assigneeId: inquiry.assigneeId,
    botcheckVerified: inquiry.botcheckVerified,
    archivedAt: iso(inquiry.archivedAt),
    createdAt: iso(inquiry.createdAt)!,
    updatedAt: iso(inquiry.updatedAt)!,
  };
}

export function presentFollowUp(followUp: InquiryFollowUp): Schema<'FollowUp'> {
  return {
    id: followUp.id,
    emailMessageId: followUp.emailMessageId,
    subject: followUp.subject,
    message: followUp.message,
    sentBy: followUp.sentBy,
    createdAt: iso(followUp.createdAt)!,
  };
}

export function presentInquiryDetail(inquiry: Inquiry, followUps: InquiryFollowUp[]): Schema<'InquiryDetail'> {
  return { inquiry: presentInquiry(inquiry), followUps: followUps.map(presentFollowUp) };
}

/** What the guest gets back: that it was received, nothing of the CRM. */
export function presentSubmittedInquiry(inquiry: Inquiry): Schema<'SubmittedInquiry'> {
  return { id: inquiry.id, type: inquiry.type, status: inquiry.status, createdAt: iso(inquiry.createdAt)! };
}
