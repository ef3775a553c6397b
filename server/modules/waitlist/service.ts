import type { Knex } from 'knex';
import type { AppContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/http/rateLimit.ts';
import { Conflict, NotFound } from '../../platform/http/problem.ts';
import { seatsTakenOf, upsertCustomer } from '../booking/index.ts';
import { likeContaining } from '../shows/index.ts';

/**
 * The waiting list (issue 13; DOMAIN.md "Guests and CRM"): guests join for an event that is sold out, or has
 * fewer seats left than their party (public, rate-limited). WAITING → NOTIFIED (an offer link e-mailed; its
 * seats are held until `offer_expires_at`, counted by server/domain/availability.ts) → CONVERTED (booked
 * through the link) or EXPIRED (offer ran out, archived by staff, or the event was cancelled).
 */

export const WAITLIST_STATUSES = ['WAITING', 'NOTIFIED', 'CONVERTED', 'EXPIRED'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

export interface WaitlistRow {
  id: string;
  show_event_id: string;
  customer_id: string | null;
  name: string;
  email: string;
  phone: string | null;
  locale: string | null;
  guest_count: number;
  status: WaitlistStatus;
  note: string | null;
  offer_expires_at: Date | null;
  notified_at: Date | null;
  reservation_id: string | null;
  converted_at: Date | null;
  expired_at: Date | null;
  created_at: Date;
  updated_at: Date;
  event_slug: string;
  event_starts_at: Date;
  reservation_reference?: string | null;
}

export function waitlistQuery(knex: Knex) {
  return knex('waitlist_entries as w')
    .join('show_events as e', 'e.id', 'w.show_event_id')
    .leftJoin('reservations as r', 'r.id', 'w.reservation_id')
    .select('w.*', 'e.slug as event_slug', 'e.starts_at as event_starts_at', 'r.reference as reservation_reference');
}

const NoSuchEntry = () => NotFound('No such waiting-list entry.');

export async function findEntryOrFail(knex: Knex, id: string): Promise<WaitlistRow> {
  const row = await waitlistQuery(knex).where('w.id', id).first();
  if (!row) throw NoSuchEntry();
  return row as WaitlistRow;
}

export async function listEntries(knex: Knex, filters: { eventId?: string; status?: WaitlistStatus; q?: string; limit: number; offset: number }) {
  const base = knex('waitlist_entries as w');
  if (filters.eventId) base.where('w.show_event_id', filters.eventId);
  if (filters.status) base.where('w.status', filters.status);
  const q = filters.q?.trim();
  if (q) base.where((w) => w.where('w.name', 'ilike', likeContaining(q)).orWhere('w.email', 'ilike', likeContaining(q)));
  const ids = base.clone().select('w.id');
  const [items, counted] = await Promise.all([
    waitlistQuery(knex)
      .whereIn('w.id', ids)
      .orderBy([{ column: 'w.created_at', order: 'asc' }, { column: 'w.id', order: 'asc' }])
      .limit(filters.limit)
      .offset(filters.offset),
    base.clone().count({ n: '*' }).first(),
  ]);
  return { items: items as WaitlistRow[], total: Number((counted as { n: string | number } | undefined)?.n ?? 0) };
}

export interface JoinInput {
  eventSlug: string;
  guestCount: number;
  name: string;
  email: string;
  phone?: string;
  locale?: string;
  note?: string;
}

/** What a join answers: the request as received, never the stored entry (see `joinWaitlist`). */
export interface JoinReceipt {
  eventSlug: string;
  guestCount: number;
  status: 'WAITING';
}

/**
 * Joins the list: only for a published, scheduled event whose seats left are fewer than the party (409
 * `seats_available` otherwise — book instead). One live entry per e-mail and event: a join with an e-mail that
 * already waits (or holds an offer) stores nothing and changes nothing, and answers exactly like a first join —
 * the receipt of the request, nothing read from the stored entry — so nobody learns who waits for what.
 */
export async function joinWaitlist(knex: Knex, input: JoinInput, now = new Date()): Promise<JoinReceipt> {
  await knex.transaction(async (trx) => {
    const event = await trx('show_events as e')
      .join('shows as s', 's.id', 'e.show_id')
      .where('e.slug', input.eventSlug)
      .first('e.id', 'e.capacity', 'e.status', 's.status as show_status');
    if (!event || event.show_status !== 'PUBLISHED') throw NotFound('No such show event.');
    if (event.status !== 'SCHEDULED') throw Conflict('event_not_bookable', `The event is ${String(event.status).toLowerCase()}.`);
    const left = event.capacity - (await seatsTakenOf(trx, event.id, now));
    if (left >= input.guestCount) throw Conflict('seats_available', `${left} seats are left: book them instead of waiting.`);
    const email = input.email.trim();
    const live = await trx('waitlist_entries')
      .where({ show_event_id: event.id })
      .whereIn('status', ['WAITING', 'NOTIFIED'])
      .andWhereRaw('lower(email) = ?', [email.toLowerCase()])
      .first('id');
    if (live) return;
    const customerId = await upsertCustomer(trx, { name: input.name, email, phone: input.phone, locale: input.locale });
    await trx('waitlist_entries')
      .insert({
        show_event_id: event.id,
        customer_id: customerId,
        name: input.name.trim(),
        email,
        phone: input.phone ?? null,
        locale: input.locale ?? null,
        guest_count: input.guestCount,
        note: input.note ?? null,
        created_at: now,
        updated_at: now,
      });
  });
  return { eventSlug: input.eventSlug, guestCount: input.guestCount, status: 'WAITING' };
}

export interface EntryUpdate {
  guestCount?: number;
  name?: string;
  phone?: string | null;
  note?: string | null;
}

/** Contact, party size and note of a WAITING entry (an offered, converted or expired one is 409). */
export async function updateEntry(knex: Knex, id: string, input: EntryUpdate): Promise<WaitlistRow> {
  await knex.transaction(async (trx) => {
    const current = await trx('waitlist_entries').where({ id }).forUpdate().first('status');
    if (!current) throw NoSuchEntry();
    if (current.status !== 'WAITING') throw Conflict('entry_not_waiting', `The entry is ${current.status.toLowerCase()}; only a waiting entry can be changed.`);
    const columns: Record<string, unknown> = { updated_at: new Date() };
    if (input.guestCount !== undefined) columns.guest_count = input.guestCount;
    if (input.name !== undefined) columns.name = input.name.trim();
    if (input.phone !== undefined) columns.phone = input.phone;
    if (input.note !== undefined) columns.note = input.note;
    await trx('waitlist_entries').where({ id }).update(columns);
  });
  return findEntryOrFail(knex, id);
}

/** Archive = EXPIRED (its offer, if any, stops holding seats); a CONVERTED entry is protected (409). Idempotent. */
export async function archiveEntry(knex: Knex, id: string, now = new Date()): Promise<void> {
  await knex.transaction(async (trx) => {
    const current = await trx('waitlist_entries').where({ id }).forUpdate().first('status');
    if (!current) throw NoSuchEntry();
    if (current.status === 'CONVERTED') throw Conflict('entry_converted', 'The entry was converted into a booking; it cannot be archived.');
    if (current.status === 'EXPIRED') return;
    await trx('waitlist_entries').where({ id }).update({ status: 'EXPIRED', expired_at: now, offer_token_hash: null, updated_at: now });
  });
}

const limitsByApp = new WeakMap<AppContext, RateLimit>();

/** Joins: 10 per address per 10 minutes. */
export async function throttleJoin(app: AppContext, ip: string): Promise<void> {
  let limit = limitsByApp.get(app);
  if (!limit) {
    limit = new RateLimit({ name: 'waitlist-join-address', points: 10, windowSeconds: 600 }, rateLimitStoreFor(app.db));
    limitsByApp.set(app, limit);
  }
  await consumeOrThrow([[limit, addressKey(ip)]], 'Too many waiting-list requests from this address; try again later.');
}
