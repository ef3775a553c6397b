import { BaseModel, RecordModel } from '../../platform/db/model.ts';

export const INQUIRY_TYPES = ['PRIVATE_EVENT', 'GROUP_BOOKING', 'CORPORATE', 'GENERAL'] as const;
export type InquiryType = (typeof INQUIRY_TYPES)[number];
export const INQUIRY_STATUSES = ['NEW', 'IN_PROGRESS', 'FOLLOWED_UP', 'CLOSED', 'ARCHIVED'] as const;
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];

/** Table `inquiries`. */
export class Inquiry extends BaseModel {
  static override tableName = 'inquiries';
  type!: InquiryType;
  status!: InquiryStatus;
  customerId!: string | null;
  name!: string;
  email!: string;
  phone!: string | null;
  locale!: string | null;
  /** A `date` column: written as `YYYY-MM-DD`; a driver may read it back as a Date (local midnight). */
  preferredDate!: string | Date | null;
  guestCount!: number | null;
  message!: string;
  assigneeId!: string | null;
  botcheckVerified!: boolean;
  archivedAt!: Date | null;
}

/** Table `inquiry_follow_ups`. */
export class InquiryFollowUp extends RecordModel {
  static override tableName = 'inquiry_follow_ups';
  id!: string;
  inquiryId!: string;
  emailMessageId!: string | null;
  subject!: string;
  message!: string;
  sentBy!: string | null;
  createdAt!: Date;
}
