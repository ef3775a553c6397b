import { iso } from '../presenting.ts';
import type { FollowUpRow, InquiryRow } from './service.ts';

const day = (value: string | Date | null): string | null => {
  if (value === null) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  // A `date` column read as a Date is midnight local time of the server process: format it back the same way.
  return `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, '0')}-${String(value.getDate()).padStart(2, '0')}`;
};

/** An inquiry as staff see it (allow-list). */
export function presentInquiry(row: InquiryRow) {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    customerId: row.customer_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    locale: row.locale,
    preferredDate: day(row.preferred_date),
    guestCount: row.guest_count,
    message: row.message,
    assigneeId: row.assignee_id,
    botcheckVerified: row.botcheck_verified,
    archivedAt: iso(row.archived_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

export function presentFollowUp(row: FollowUpRow) {
  return { id: row.id, emailMessageId: row.email_message_id, subject: row.subject, message: row.message, sentBy: row.sent_by, createdAt: iso(row.created_at)! };
}

/** What the guest gets back: that it was received, nothing of the CRM. */
export function presentSubmittedInquiry(row: InquiryRow) {
  return { id: row.id, type: row.type, status: row.status, createdAt: iso(row.created_at)! };
}
