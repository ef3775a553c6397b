import type { Knex } from 'knex';
import { NotFound } from '../../platform/http/problem.ts';
import { digest, tokenMatches } from '../../platform/auth/tokens.ts';
import { GuestProfile, GuestReaction } from './models.ts';

/**
 * Guest profiles (issue 13; DOMAIN.md "Guests and CRM"): the members of a reservation's party, each with a
 * display name and dietary preferences, made by the guest with the reservation's access token; each profile
 * gets its own token (only its SHA-256 stored) that opens exactly that profile: read, update, react during or
 * after the show. Staff see them per event (dietary needs by table), assign tables, soft delete. A deleted
 * profile's token stops working.
 *
 * A profile is read with its reservation, event and table (a join over the booking, showEvents and tables
 * modules' tables): the model's row with those columns alongside, camelCase.
 */

/** What a profile is read with. */
export interface ProfileContext {
  reservationReference: string;
  reservationStatus: string;
  showEventId: string;
  eventSlug: string;
  eventStartsAt: Date;
  eventDoorsAt: Date | null;
  tableCode: string | null;
}
export type ProfileView = GuestProfile & ProfileContext;

/** A reaction with its profile's name and table. */
export type ReactionView = GuestReaction & { displayName: string; tableCode: string | null };

function profileQuery(trx?: Knex.Transaction) {
  return GuestProfile.query(trx)
    .alias('p')
    .join('reservations as r', 'r.id', 'p.reservation_id')
    .join('show_events as e', 'e.id', 'r.show_event_id')
    .leftJoin('venue_tables as t', 't.id', 'p.table_id')
    .select(
      'p.*',
      'r.reference as reservation_reference',
      'r.status as reservation_status',
      'r.show_event_id',
      'e.slug as event_slug',
      'e.starts_at as event_starts_at',
      'e.doors_at as event_doors_at',
      't.code as table_code',
    );
}

/** The profile `id` with its reservation, event and table, or undefined. */
export async function findProfileView(id: string, trx?: Knex.Transaction): Promise<ProfileView | undefined> {
  return (await profileQuery(trx).where('p.id', id).first()) as ProfileView | undefined;
}

export async function findProfileOrFail(id: string, trx?: Knex.Transaction): Promise<ProfileView> {
  const profile = await findProfileView(id, trx);
  if (!profile) throw NotFound('No such profile.');
  return profile;
}

const NoSuchProfile = () => NotFound('No such profile, or the token does not open it.');
const DUMMY = digest('no profile');

/** The live profile `token` opens, or undefined (unknown, deleted, missing: one answer; compared in constant time). */
export async function profileForToken(token: string | undefined): Promise<ProfileView | undefined> {
  const profile = token ? ((await profileQuery().where('p.token_hash', digest(token)).first()) as ProfileView | undefined) : undefined;
  const ok = tokenMatches(token, profile?.tokenHash ?? DUMMY);
  return profile && ok && !profile.isDeleted ? profile : undefined;
}

export async function profileForTokenOrFail(token: string | undefined): Promise<ProfileView> {
  const profile = await profileForToken(token);
  if (!profile) throw NoSuchProfile();
  return profile;
}

export async function listProfiles(filters: { eventId: string; includeDeleted: boolean; limit: number; offset: number }): Promise<{ items: ProfileView[]; total: number }> {
  const base = profileQuery().where('r.show_event_id', filters.eventId);
  if (!filters.includeDeleted) base.where('p.is_deleted', false);
  const [items, total] = await Promise.all([
    base
      .clone()
      .orderByRaw('t.sort_order nulls last, t.code nulls last, r.reference, p.created_at, p.id')
      .limit(filters.limit)
      .offset(filters.offset),
    base.clone().resultSize(),
  ]);
  return { items: items as ProfileView[], total };
}

export async function listReactions(filters: { eventId: string; since?: string; limit: number; offset: number }): Promise<{ items: ReactionView[]; total: number }> {
  const base = GuestReaction.query()
    .alias('x')
    .join('guest_profiles as p', 'p.id', 'x.profile_id')
    .join('reservations as r', 'r.id', 'p.reservation_id')
    .leftJoin('venue_tables as t', 't.id', 'p.table_id')
    .where('r.show_event_id', filters.eventId)
    .andWhere('p.is_deleted', false);
  if (filters.since) base.andWhere('x.created_at', '>', filters.since);
  const [items, total] = await Promise.all([
    base
      .clone()
      .select('x.id', 'x.profile_id', 'p.display_name', 't.code as table_code', 'x.emoji', 'x.comment', 'x.created_at')
      .orderBy([{ column: 'x.created_at', order: 'desc' }, { column: 'x.id', order: 'asc' }])
      .limit(filters.limit)
      .offset(filters.offset),
    base.clone().resultSize(),
  ]);
  return { items: items as ReactionView[], total };
}

/** The reservation a new profile joins, locked (the booking module's table; it exports no model). */
export async function lockReservationForProfiles(trx: Knex.Transaction, reservationId: string): Promise<{ status: string; guestCount: number; holdExpiresAt: Date | null }> {
  const locked = await trx('reservations').where({ id: reservationId }).forUpdate().first('status', 'guest_count', 'hold_expires_at');
  return { status: locked.status, guestCount: locked.guest_count, holdExpiresAt: locked.hold_expires_at };
}

/** The live profiles of a reservation. */
export async function liveProfileCount(trx: Knex.Transaction, reservationId: string): Promise<number> {
  return GuestProfile.query(trx).where({ reservation_id: reservationId, is_deleted: false }).resultSize();
}
