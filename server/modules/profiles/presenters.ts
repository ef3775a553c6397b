import { iso } from '../presenting.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { ProfileView, ReactionView } from './queries.ts';

/** A profile as its own guest sees it (allow-list: nothing of the rest of the party or staff fields). */
export function presentOwnProfile(profile: ProfileView): Schema<'OwnGuestProfile'> {
  return {
    id: profile.id,
    displayName: profile.displayName,
    dietaryPreferences: profile.dietaryPreferences,
    dietaryNote: profile.dietaryNote,
    reservationReference: profile.reservationReference,
    eventSlug: profile.eventSlug,
    eventStartsAt: iso(profile.eventStartsAt)!,
    tableCode: profile.tableCode,
    createdAt: iso(profile.createdAt)!,
    updatedAt: iso(profile.updatedAt)!,
  };
}

/** A profile as staff see it (the floor: dietary needs by table). */
export function presentProfile(profile: ProfileView): Schema<'GuestProfile'> {
  return {
    id: profile.id,
    reservationId: profile.reservationId,
    reservationReference: profile.reservationReference,
    eventId: profile.showEventId,
    displayName: profile.displayName,
    dietaryPreferences: profile.dietaryPreferences,
    dietaryNote: profile.dietaryNote,
    tableId: profile.tableId,
    tableCode: profile.tableCode,
    isDeleted: profile.isDeleted,
    deletedAt: iso(profile.deletedAt),
    createdAt: iso(profile.createdAt)!,
    updatedAt: iso(profile.updatedAt)!,
  };
}

export function presentReaction(reaction: ReactionView): Schema<'Reaction'> {
  return {
    id: reaction.id,
    profileId: reaction.profileId,
    displayName: reaction.displayName,
    tableCode: reaction.tableCode,
    emoji: reaction.emoji,
    comment: reaction.comment,
    createdAt: iso(reaction.createdAt)!,
  };
}
