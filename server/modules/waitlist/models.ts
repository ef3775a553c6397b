import { BaseModel } from '../../platform/db/model.ts';

export const WAITLIST_STATUSES = ['WAITING', 'NOTIFIED', 'CONVERTED', 'EXPIRED'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

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
  status!: WaitlistStatus;
  note!: string | null;
  offerTokenHash!: Buffer | null;
  offerExpiresAt!: Date | null;
  notifiedAt!: Date | null;
  reservationId!: string | null;
  convertedAt!: Date | null;
  expiredAt!: Date | null;
}
