import { BaseModel, RecordModel } from '../../platform/db/model.ts';

/** Table `customers`. */
export class Customer extends BaseModel {
  static override tableName = 'customers';
  honorific!: string | null;
  name!: string;
  email!: string;
  emailNormalized!: string;
  phone!: string | null;
  locale!: string | null;
  isDeleted!: boolean;
  deletedAt!: Date | null;
}

/** Table `customer_emails`. */
export class CustomerEmail extends RecordModel {
  static override tableName = 'customer_emails';
  id!: string;
  customerId!: string;
  email!: string;
  emailNormalized!: string;
  firstSeenAt!: Date;
  lastSeenAt!: Date;
}

/** Table `customer_leads`. */
export class CustomerLead extends RecordModel {
  static override tableName = 'customer_leads';
  id!: string;
  customerId!: string;
  referenceHash!: Buffer;
  showEventId!: string | null;
  bookingPath!: string | null;
  guestCount!: number | null;
  experienceType!: string | null;
  analyticsSessionId!: string | null;
  analyticsDistinctId!: string | null;
  analyticsLocalSessionId!: string | null;
  expiresAt!: Date;
  createdAt!: Date;
  honorific!: string | null;
  name!: string;
  email!: string;
  phone!: string | null;
  locale!: string | null;
}
