import { BaseModel, RecordModel } from '../../platform/db/model.ts';

/** Table `guest_profiles`. */
export class GuestProfile extends BaseModel {
  static override tableName = 'guest_profiles';
  static override jsonAttributes = ['dietaryPreferences'];
  reservationId!: string;
  displayName!: string;
  dietaryPreferences!: unknown;
  dietaryNote!: string | null;
  tableId!: string | null;
  tokenHash!: Buffer;
  isDeleted!: boolean;
  deletedAt!: Date | null;
}

/** Table `guest_reactions`. */
export class GuestReaction extends RecordModel {
  static override tableName = 'guest_reactions';
  id!: string;
  profileId!: string;
  emoji!: string;
  comment!: string | null;
  createdAt!: Date;
}
