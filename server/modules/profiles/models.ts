import { BaseModel, RecordModel } from '../../platform/db/model.ts';

export const DIETARY_PREFERENCES = [
  'VEGETARIAN',
  'VEGAN',
  'PESCATARIAN',
  'GLUTEN_FREE',
  'DAIRY_FREE',
  'NUT_ALLERGY',
  'SHELLFISH_ALLERGY',
  'HALAL',
  'KOSHER',
  'NO_PORK',
  'NO_BEEF',
  'NO_ALCOHOL',
] as const;

/** The reactions a guest can send (a fixed set; the contract's enum). */
export const REACTION_EMOJI = ['👏', '❤️', '😂', '😮', '🔥', '🎉', '😢', '👍'] as const;

export type DietaryPreference = (typeof DIETARY_PREFERENCES)[number];
export type ReactionEmoji = (typeof REACTION_EMOJI)[number];

/** Table `guest_profiles`: a member of a reservation's party, opened by its own token (only its SHA-256 kept). */
export class GuestProfile extends BaseModel {
  static override tableName = 'guest_profiles';
  static override jsonAttributes = ['dietaryPreferences'];
  reservationId!: string;
  displayName!: string;
  dietaryPreferences!: DietaryPreference[];
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
  emoji!: ReactionEmoji;
  comment!: string | null;
  createdAt!: Date;
}
