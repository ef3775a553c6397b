import { RecordModel } from '../../platform/db/model.ts';

export const CHECK_IN_TYPES = ['ENTRY', 'EXIT'] as const;
export type CheckInType = (typeof CHECK_IN_TYPES)[number];

/** In the order they are checked (first match wins). */
export const CHECK_IN_REASONS = ['not_found', 'cancelled', 'unpaid', 'no_show', 'wrong_event', 'not_today', 'already_checked_in', 'not_checked_in'] as const;
export type CheckInReason = (typeof CHECK_IN_REASONS)[number];

/** Table `check_ins`: every redeem attempt at the door, accepted or refused. */
export class CheckIn extends RecordModel {
  static override tableName = 'check_ins';
  id!: string;
  reservationId!: string | null;
  showEventId!: string | null;
  type!: CheckInType;
  identifiedBy!: 'ID' | 'TOKEN';
  nonce!: string;
  requestHash!: Buffer;
  result!: 'ok' | 'refused';
  reason!: CheckInReason | null;
  operator!: string;
  createdAt!: Date;
}
