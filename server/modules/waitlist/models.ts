import { BaseModel } from '../../platform/db/model.ts';

/** Table `waitlist_entries`. */
export class WaitlistEntry extends BaseModel {
  static override tableName = 'waitlist_entries';
  showEventId!: string;
  customerId!: string | null;
  name!: string;
  email!: string;
  phone!: string | null;
  locale!: string | null;
  guestCount!: number;
  status!: string;
  note!: string | null;
  offerTokenHash!: Buffer | null;
  offerExpiresAt!: Date | null;
  notifiedAt!: Date | null;
  reservationId!: string | null;
  convertedAt!: Date | null;
  expiredAt!: Date | null;
}
