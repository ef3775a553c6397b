import { iso } from '../presenting.ts';
import type { ProfileRow, ReactionRow } from './service.ts';

/** A profile as its own guest sees it (allow-list: nothing of the rest of the party or staff fields). */
export function presentOwnProfile(row: ProfileRow) {
  return {
    id: row.id,
    displayName: row.display_name,
    dietaryPreferences: row.dietary_preferences,
    dietaryNote: row.dietary_note,
    reservationReference: row.reservation_reference,
    eventSlug: row.event_slug,
    eventStartsAt: iso(row.event_starts_at)!,
    tableCode: row.table_code,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

/** A profile as staff see it (the floor: dietary needs by table). */
export function presentProfile(row: ProfileRow) {
  return {
    id: row.id,
    reservationId: row.reservation_id,
    reservationReference: row.reservation_reference,
    eventId: row.show_event_id,
    displayName: row.display_name,
    dietaryPreferences: row.dietary_preferences,
    dietaryNote: row.dietary_note,
    tableId: row.table_id,
    tableCode: row.table_code,
    isDeleted: row.is_deleted,
    deletedAt: iso(row.deleted_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

export function presentReaction(row: ReactionRow) {
  return { id: row.id, profileId: row.profile_id, displayName: row.display_name, tableCode: row.table_code, emoji: row.emoji, comment: row.comment, createdAt: iso(row.created_at)! };
}
