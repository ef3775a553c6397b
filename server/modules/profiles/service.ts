import type { Knex } from 'knex';
import type { AppContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/http/rateLimit.ts';
import { Conflict, NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { reservationForGuest } from '../booking/index.ts';
import { digest, newAccessToken, tokenMatches } from '../booking/index.ts';

/**
 * Guest profiles (issue 13; DOMAIN.md "Guests and CRM"): the members of a reservation's party, each with a
 * display name and dietary preferences, made by the guest with the reservation's access token; each profile
 * gets its own token (only its SHA-256 stored) that opens exactly that profile: read, update, react during or
 * after the show. Staff see them per event (dietary needs by table), assign tables, soft delete. A deleted
 * profile's token stops working.
 */

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

export interface ProfileRow {
  id: string;
  reservation_id: string;
  display_name: string;
  dietary_preferences: DietaryPreference[];
  dietary_note: string | null;
  table_id: string | null;
  is_deleted: boolean;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
  reservation_reference: string;
  reservation_status: string;
  show_event_id: string;
  event_slug: string;
  event_starts_at: Date;
  event_doors_at: Date | null;
  table_code: string | null;
  token_hash?: Buffer;
}

export interface ReactionRow {
  id: string;
  profile_id: string;
  display_name: string;
  table_code: string | null;
  emoji: ReactionEmoji;
  comment: string | null;
  created_at: Date;
}

export function profileQuery(knex: Knex) {
  return knex('guest_profiles as p')
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

const NoSuchProfile = () => NotFound('No such profile, or the token does not open it.');
const LIVE_RESERVATION = ['HELD', 'CONFIRMED', 'CHECKED_IN'];

export interface ProfileInput {
  displayName: string;
  dietaryPreferences?: DietaryPreference[];
  dietaryNote?: string | null;
}

/**
 * A new profile for the party of the reservation `reference` opened by `reservationToken` (404 otherwise, one
 * answer for every miss). At most one profile per guest of the party (409 `party_full`); a cancelled, expired
 * or no-show reservation takes none (409 `reservation_not_active`). Answers the profile and its token (once).
 */
export async function createProfile(knex: Knex, reference: string, reservationToken: string | undefined, input: ProfileInput) {
  const reservation = await reservationForGuest(knex, reference, reservationToken);
  if (!reservation) throw NotFound('No such reservation, or the token does not open it.');
  const token = newAccessToken();
  const id = await knex.transaction(async (trx) => {
    const locked = await trx('reservations').where({ id: reservation.id }).forUpdate().first('status', 'guest_count', 'hold_expires_at');
    const expired = locked.status === 'HELD' && locked.hold_expires_at && new Date(locked.hold_expires_at) <= new Date();
    if (!LIVE_RESERVATION.includes(locked.status) || expired) throw Conflict('reservation_not_active', 'Profiles can be added to a live reservation only.');
    const count = await trx('guest_profiles').where({ reservation_id: reservation.id, is_deleted: false }).count({ n: '*' }).first();
    if (Number(count!.n) >= locked.guest_count) throw Conflict('party_full', `The party has ${locked.guest_count} guests and each has a profile.`);
    const [row] = await trx('guest_profiles')
      .insert({
        reservation_id: reservation.id,
        display_name: input.displayName.trim(),
        dietary_preferences: JSON.stringify([...new Set(input.dietaryPreferences ?? [])]),
        dietary_note: input.dietaryNote ?? null,
        token_hash: digest(token),
      })
      .returning('id');
    return row.id as string;
  });
  return { profile: (await profileQuery(knex).where('p.id', id).first()) as ProfileRow, token };
}

const DUMMY = digest('no profile');

/** The live profile `token` opens, or undefined (unknown, deleted, missing: one answer; compared in constant time). */
export async function profileForToken(knex: Knex, token: string | undefined): Promise<ProfileRow | undefined> {
  const row = token ? ((await profileQuery(knex).where('p.token_hash', digest(token)).first()) as ProfileRow | undefined) : undefined;
  const ok = tokenMatches(token, row?.token_hash ?? DUMMY);
  return row && ok && !row.is_deleted ? row : undefined;
}

export async function profileForTokenOrFail(knex: Knex, token: string | undefined): Promise<ProfileRow> {
  const row = await profileForToken(knex, token);
  if (!row) throw NoSuchProfile();
  return row;
}

export async function updateOwnProfile(knex: Knex, profile: ProfileRow, input: Partial<ProfileInput>): Promise<ProfileRow> {
  const columns: Record<string, unknown> = { updated_at: new Date() };
  if (input.displayName !== undefined) columns.display_name = input.displayName.trim();
  if (input.dietaryPreferences !== undefined) columns.dietary_preferences = JSON.stringify([...new Set(input.dietaryPreferences)]);
  if (input.dietaryNote !== undefined) columns.dietary_note = input.dietaryNote;
  await knex('guest_profiles').where({ id: profile.id, is_deleted: false }).update(columns);
  return (await profileQuery(knex).where('p.id', profile.id).first()) as ProfileRow;
}

/** A reaction, only once the doors are open (or the show started) and for a reservation that is not cancelled. */
export async function react(knex: Knex, profile: ProfileRow, input: { emoji: ReactionEmoji; comment?: string }, now = new Date()) {
  const opensAt = new Date(profile.event_doors_at ?? profile.event_starts_at);
  if (now < opensAt) throw Conflict('show_not_started', 'Reactions open when the doors open.');
  if (!['CONFIRMED', 'CHECKED_IN', 'NO_SHOW'].includes(profile.reservation_status)) throw Conflict('reservation_not_active', 'This reservation takes no reactions.');
  const [row] = await knex('guest_reactions')
    .insert({ profile_id: profile.id, emoji: input.emoji, comment: input.comment?.trim() || null, created_at: now })
    .returning('*');
  return { ...row, display_name: profile.display_name, table_code: profile.table_code } as ReactionRow;
}

export async function listProfiles(knex: Knex, filters: { eventId: string; includeDeleted: boolean; limit: number; offset: number }) {
  const base = profileQuery(knex).where('r.show_event_id', filters.eventId);
  if (!filters.includeDeleted) base.where('p.is_deleted', false);
  const [items, counted] = await Promise.all([
    base
      .clone()
      .orderByRaw('t.sort_order nulls last, t.code nulls last, r.reference, p.created_at, p.id')
      .limit(filters.limit)
      .offset(filters.offset),
    base.clone().clearSelect().count({ n: '*' }).first(),
  ]);
  return { items: items as ProfileRow[], total: Number((counted as { n: string | number } | undefined)?.n ?? 0) };
}

export async function listReactions(knex: Knex, filters: { eventId: string; since?: string; limit: number; offset: number }) {
  const base = knex('guest_reactions as x')
    .join('guest_profiles as p', 'p.id', 'x.profile_id')
    .join('reservations as r', 'r.id', 'p.reservation_id')
    .leftJoin('venue_tables as t', 't.id', 'p.table_id')
    .where('r.show_event_id', filters.eventId)
    .andWhere('p.is_deleted', false);
  if (filters.since) base.andWhere('x.created_at', '>', filters.since);
  const [items, counted] = await Promise.all([
    base
      .clone()
      .select('x.id', 'x.profile_id', 'p.display_name', 't.code as table_code', 'x.emoji', 'x.comment', 'x.created_at')
      .orderBy([{ column: 'x.created_at', order: 'desc' }, { column: 'x.id', order: 'asc' }])
      .limit(filters.limit)
      .offset(filters.offset),
    base.clone().count({ n: '*' }).first(),
  ]);
  return { items: items as ReactionRow[], total: Number((counted as { n: string | number } | undefined)?.n ?? 0) };
}

export async function findProfileOrFail(knex: Knex, id: string): Promise<ProfileRow> {
  const row = await profileQuery(knex).where('p.id', id).first();
  if (!row) throw NotFound('No such profile.');
  return row as ProfileRow;
}

/** Staff: assign a table (or none); a deleted profile cannot be changed (409), an unknown table is 422. */
export async function assignTable(knex: Knex, id: string, tableId: string | null): Promise<ProfileRow> {
  const current = await findProfileOrFail(knex, id);
  if (current.is_deleted) throw Conflict('profile_deleted', 'The profile was deleted; it cannot be changed.');
  if (tableId && !(await knex('venue_tables').where({ id: tableId }).first('id'))) {
    throw Unprocessable('unknown_table', 'No such table.', [{ path: 'body/tableId', message: 'is not a table', code: 'unknown_table' }]);
  }
  await knex('guest_profiles').where({ id }).update({ table_id: tableId, updated_at: new Date() });
  return findProfileOrFail(knex, id);
}

/** Soft delete (idempotent): `isDeleted`, its token stops working, its reactions leave the staff lists. */
export async function deleteProfile(knex: Knex, id: string, now = new Date()): Promise<void> {
  const current = await knex('guest_profiles').where({ id }).first('is_deleted');
  if (!current) throw NotFound('No such profile.');
  if (current.is_deleted) return;
  await knex('guest_profiles').where({ id }).update({ is_deleted: true, deleted_at: now, updated_at: now });
}

interface ProfileLimits {
  writes: RateLimit;
  reactionsPerProfile: RateLimit;
  reactionsPerAddress: RateLimit;
}
const limitsByApp = new WeakMap<AppContext, ProfileLimits>();

function limits(app: AppContext): ProfileLimits {
  let found = limitsByApp.get(app);
  if (!found) {
    const store = rateLimitStoreFor(app.db);
    found = {
      writes: new RateLimit({ name: 'profile-write-address', points: 30, windowSeconds: 600 }, store),
      reactionsPerProfile: new RateLimit({ name: 'profile-reaction', points: 20, windowSeconds: 300 }, store),
      reactionsPerAddress: new RateLimit({ name: 'profile-reaction-address', points: 200, windowSeconds: 300 }, store),
    };
    limitsByApp.set(app, found);
  }
  return found;
}

/** Profile creation and updates: 30 per address per 10 minutes. */
export const throttleProfileWrite = (app: AppContext, ip: string) => consumeOrThrow([[limits(app).writes, addressKey(ip)]], 'Too many profile changes from this address; try again later.');

/** Reactions: 20 per profile per 5 minutes, 200 per address (a venue's shared Wi-Fi) per 5 minutes. */
export const throttleReaction = (app: AppContext, ip: string, profileId: string) =>
  consumeOrThrow(
    [
      [limits(app).reactionsPerProfile, profileId],
      [limits(app).reactionsPerAddress, addressKey(ip)],
    ],
    'Too many reactions; take a breath and enjoy the show.',
  );
