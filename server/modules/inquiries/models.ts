import { BaseModel, RecordModel } from '../../platform/db/model.ts';

/** Table `inquiries`. */
export class Inquiry extends BaseModel {
  static override tableName = 'inquiries';
  type!: string;
  status!: string;
  customerId!: string | null;
  name!: string;
  email!: string;
  phone!: string | null;
  locale!: string | null;
  preferredDate!: string | null;
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
