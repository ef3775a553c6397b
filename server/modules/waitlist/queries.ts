import type { Knex } from 'knex';
import { NotFound } from '../../platform/http/problem.ts';
import { likeContaining } from '../shows/index.ts';
import { WaitlistEntry, type WaitlistStatus } from './models.ts';

/**
 * The waiting list (issue 13; DOMAIN.md "Guests and CRM"): guests join for an event that is sold out, or has
 * fewer seats left than their party (public, rate-limited). WAITING → NOTIFIED (an offer link e-mailed; its
 * seats are held until `offer_expires_at`, counted by server/domain/availability.ts) → CONVERTED (booked
 * through the link) or EXPIRED (offer ran out, archived by staff, or the event was cancelled). The writes are
 * in ./commands/; this file holds the reads and the set-based statements (the latter called only from commands).
 */

/** An entry with its event's slug and start and its reservation's reference, as staff see it. */
export type WaitlistEntryView = WaitlistEntry & { eventSlug: string; eventStartsAt: Date; reservationReference: string | null };

export const NoSuchEntry = () => NotFound('No such waiting-list entry.');

function entryViews(knex: Knex) {
  return knex('waitlist_entries as w')
    .join('show_events as e', 'e.id', 'w.show_event_id')
    .leftJoin('reservations as r', 'r.id', 'w.reservation_id')
    .select('w.*', 'e.slug as event_slug', 'e.starts_at as event_starts_at', 'r.reference as reservation_reference');
}

/** A row of `entryViews` as the model reads it (snake_case → camelCase, as a query through the model would). */
const asView = (row: Record<string, unknown>) => WaitlistEntry.fromDatabaseJson(row) as WaitlistEntryView;

export async function findEntryOrFail(knex: Knex, id: string): Promise<WaitlistEntryView> {
  const entry = await entryViews(knex).where('w.id', id).first();
  if (!entry) throw NoSuchEntry();
  return asView(entry);
}

export interface WaitlistFilters {
  eventId?: string;
  status?: WaitlistStatus;
  q?: string;
}

/**
 * Narrows `query` (over `waitlist_entries as w`) by the staff list's filters; shared with the exports module's
 * waiting-list export (through this module's door), so both hold the same entries.
 */
export function filterEntries(query: Knex.QueryBuilder, filters: WaitlistFilters): Knex.QueryBuilder {
  if (filters.eventId) query.where('w.show_event_id', filters.eventId);
  if (filters.status) query.where('w.status', filters.status);
  const q = filters.q?.trim();
  if (q) query.where((w) => w.where('w.name', 'ilike', likeContaining(q)).orWhere('w.email', 'ilike', likeContaining(q)));
  return query;
}

export async function listEntries(knex: Knex, filters: WaitlistFilters & { limit: number; offset: number }): Promise<{ items: WaitlistEntryView[]; total: number }> {
  const matching = () => filterEntries(knex('waitlist_entries as w'), filters);
  const [rows, counted] = await Promise.all([
    filterEntries(entryViews(knex), filters)
      .orderBy([{ column: 'w.created_at', order: 'asc' }, { column: 'w.id', order: 'asc' }])
      .limit(filters.limit)
      .offset(filters.offset),
    matching().count({ n: '*' }).first(),
  ]);
  return { items: rows.map(asView), total: Number((counted as { n: string | number } | undefined)?.n ?? 0) };
}

/** A join's entry, as commands/joinWaitlist.ts writes it. */
export interface NewEntry {
  showEventId: string;
  customerId: string;
  name: string;
  email: string;
  phone: string | null;
  locale: string | null;
  guestCount: number;
  note: string | null;
  now: Date;
}

/**
 * Set-based (a join): writes the entry unless this e-mail address (any case) already has a live (WAITING or
 * NOTIFIED) entry for the event, in one statement either way — the same statement, the same round trip, whether
 * it writes a row or not, so a join's answer takes as long for an address that already waits as for one that
 * does not (issue 32 §4.1).
 */
export async function insertEntryUnlessLive(trx: Knex.Transaction, entry: NewEntry): Promise<void> {
  await trx.raw(
    `insert into waitlist_entries (show_event_id, customer_id, name, email, phone, locale, guest_count, note, created_at, updated_at)
     select ?::uuid, ?::uuid, ?::text, ?::text, ?::text, ?::text, ?::integer, ?::text, ?::timestamptz, ?::timestamptz
      where not exists (
        select 1 from waitlist_entries w
         where w.show_event_id = ?::uuid and w.status in ('WAITING', 'NOTIFIED') and lower(w.email) = lower(?::text)
      )`,
    [
      entry.showEventId,
      entry.customerId,
      entry.name,
      entry.email,
      entry.phone,
      entry.locale,
      entry.guestCount,
      entry.note,
      entry.now,
      entry.now,
      entry.showEventId,
      entry.email,
    ],
  );
}

/** The event a guest joins by slug, with its show's status (`undefined` when there is no such event). */
export async function eventToJoin(
  trx: Knex.Transaction,
  slug: string,
): Promise<{ id: string; capacity: number; status: string; showStatus: string } | undefined> {
  const row = await trx('show_events as e').join('shows as s', 's.id', 'e.show_id').where('e.slug', slug).first('e.id', 'e.capacity', 'e.status', 's.status as show_status');
  return row && { id: row.id, capacity: row.capacity, status: row.status, showStatus: row.show_status };
}

/** An event locked for an offer run, with what the offer e-mail needs. */
export interface LockedEvent {
  id: string;
  slug: string;
  capacity: number;
  status: string;
  salesOpen: boolean;
  startsAt: Date;
  title: Record<string, string>;
}

/** Locks the event row (lock order: event → entries) for the rest of the transaction. */
export async function lockEvent(trx: Knex.Transaction, eventId: string): Promise<LockedEvent | undefined> {
  const { rows } = (await trx.raw(
    `select e.id, e.slug, e.capacity, e.status, e.sales_open, e.starts_at, s.title
       from show_events e join shows s on s.id = e.show_id where e.id = ? for update of e`,
    [eventId],
  )) as { rows: Array<{ id: string; slug: string; capacity: number; status: string; sales_open: boolean; starts_at: Date; title: Record<string, string> }> };
  const row = rows[0];
  return row && { id: row.id, slug: row.slug, capacity: row.capacity, status: row.status, salesOpen: row.sales_open, startsAt: row.starts_at, title: row.title };
}

/** Set-based (the offer-expiry job): offers past their expiry become EXPIRED; answers the events of those entries. */
export async function expirePastOffers(knex: Knex, now: Date): Promise<string[]> {
  const expired: Array<{ show_event_id: string }> = await knex('waitlist_entries')
    .where('status', 'NOTIFIED')
    .andWhere('offer_expires_at', '<=', now)
    .update({ status: 'EXPIRED', expired_at: now, offer_token_hash: null, updated_at: now })
    .returning(['show_event_id']);
  return expired.map((row) => row.show_event_id);
}

/** Set-based (an event cancelled): its WAITING and NOTIFIED entries become EXPIRED; answers how many. */
export async function expireLiveEntriesOf(trx: Knex.Transaction, showEventId: string, now: Date): Promise<number> {
  const expired = await trx('waitlist_entries')
    .where({ show_event_id: showEventId })
    .whereIn('status', ['WAITING', 'NOTIFIED'])
    .update({ status: 'EXPIRED', expired_at: now, offer_token_hash: null, updated_at: now });
  return Number(expired);
}

/** The event a reservation is for. */
export async function eventOfReservation(trx: Knex.Transaction, reservationId: string): Promise<string> {
  const row = await trx('reservations').where({ id: reservationId }).first('show_event_id');
  return row.show_event_id;
}

/** Of the events of these reservations, those with someone WAITING. */
export async function eventsWithWaitingOf(trx: Knex.Transaction, reservationIds: string[]): Promise<string[]> {
  const events: string[] = await trx('reservations').whereIn('id', reservationIds).distinct().pluck('show_event_id');
  return await trx('waitlist_entries').whereIn('show_event_id', events).where('status', 'WAITING').distinct().pluck('show_event_id');
}

/**
 * A customer merge's part here (the customers module's mergeCustomers, in its transaction): every waiting-list entry of the
 * duplicate moves to the survivor.
 */
export async function moveCustomerEntries(trx: Knex.Transaction, fromCustomerId: string, toCustomerId: string): Promise<void> {
  await trx('waitlist_entries').where({ customer_id: fromCustomerId }).update({ customer_id: toCustomerId });
}
