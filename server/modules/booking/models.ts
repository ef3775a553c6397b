import { BaseModel, RecordModel } from '../../platform/db/model.ts';
import type { BookingPath } from '../offers/index.ts';
import type { ReservationStatus } from './status.ts';

/** Table `reservations`: one booking (DOMAIN.md "Booking"); its status moves through lifecycle.ts. */
export class Reservation extends BaseModel {
  static override tableName = 'reservations';
  reference!: string;
  showEventId!: string;
  offerId!: string;
  customerId!: string;
  leadId!: string | null;
  guestCount!: number;
  status!: ReservationStatus;
  holdExpiresAt!: Date | null;
  pricePerGuestVnd!: number;
  subtotalVnd!: number;
  discountVnd!: number;
  serviceChargeVnd!: number;
  vatVnd!: number;
  totalVnd!: number;
  serviceChargePercent!: string;
  vatPercent!: string;
  bookingPath!: BookingPath;
  experienceType!: string | null;
  locale!: string | null;
  accessTokenHash!: Buffer;
  customerNote!: string | null;
  staffNotes!: string | null;
  tableId!: string | null;
  analyticsSessionId!: string | null;
  analyticsDistinctId!: string | null;
  analyticsLocalSessionId!: string | null;
  promoCode!: string | null;
  voucherCode!: string | null;
  referralCode!: string | null;
  referralLinkSlug!: string | null;
  referralPartnerSlug!: string | null;
  confirmedAt!: Date | null;
  checkedInAt!: Date | null;
  expiredAt!: Date | null;
  cancelledAt!: Date | null;
  cancellationReason!: string | null;
  cancelledBy!: string | null;
  checkInTokenHash!: Buffer | null;
  confirmedBy!: string | null;
  noShowAt!: Date | null;
  promoDiscountVnd!: number;
  referralDiscountVnd!: number;
  voucherCreditVnd!: number;
  referralPartnerId!: string | null;
  referralCodeId!: string | null;
  referralLinkId!: string | null;
  contactHonorific!: string | null;
  contactName!: string;
  contactEmail!: string;
  contactPhone!: string | null;
  accessTokenSealed!: string | null;
  checkInTokenSealed!: string | null;
  /** How its guest chose to pay later (issue 34 §1, ./payLater.ts): at the venue, by bank transfer, or null. */
  payLaterMethod!: 'PAY_AT_VENUE' | 'BANK_TRANSFER' | null;
}

// ---- the guest's contact record (the CRM's customers) ----------------------------------------------------------
// Booking owns these tables: every hold, lead and join files its contact here (./contacts.ts); the customers module
// (the staff's CRM, later in the module order) reads them and changes them through booking's door.

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
