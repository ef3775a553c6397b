/**
 * The booking rows of the benchmark (R1, R2): a published show (`HBENCH`, not `BENCH…`, so the catalog row's
 * cleanup never touches it) with one offer and its events, written straight into the tables, and the guest's
 * hold transaction as plain SQL through the driver — what R2 measures the app's full chain against.
 *
 * - R1 (contention): `CONTENTION_ROUNDS` events of capacity `CONTENTION_CAPACITY`, each with all but
 *   `CONTENTION_LEFT` seats already taken by one confirmed booking: 200 guests then race for the last seats. Every
 *   round is counted, the first after the server's start included (issue 37 §1: no warm-up round).
 * - R2 (throughput): one event with room for every hold a run makes (both sides book it, in turns).
 *
 * Every customer the holds create has an `@bench-holds.example.com` address, so a run over a real PostgreSQL
 * database removes exactly what it wrote (`removeHoldBench`).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { breakdown } from '../../server/domain/pricing.ts';
import { newReservationReference } from '../../server/modules/booking/tokens.ts';

export const HOLD_SHOW_CODE = 'HBENCH';
export const HOLD_OFFER_CODE = 'HBENCH-DINNER';
export const HOLD_EMAIL_DOMAIN = 'bench-holds.example.com';
export const CONTENTION_ROUNDS = 5;
export const CONTENTION_CAPACITY = 120;
export const CONTENTION_LEFT = 10;
export const HOLD_PATH = '/api/public/reservations';

export interface HoldBench {
  offerCode: string;
  /** R1's events, one per round (all counted). */
  contention: Array<{ id: string; slug: string; capacity: number }>;
  /** R2's event. */
  throughput: string;
}

/** Removes what the seed and the holds wrote (reservations before events, events before the show). */
export async function removeHoldBench(knex: Knex): Promise<void> {
  const events = knex('show_events').select('id').whereIn('show_id', knex('shows').select('id').where('code', HOLD_SHOW_CODE));
  await knex('reservations').whereIn('show_event_id', events).delete();
  await knex('show_events').whereIn('show_id', knex('shows').select('id').where('code', HOLD_SHOW_CODE)).delete();
  await knex('offers').where('code', HOLD_OFFER_CODE).delete();
  await knex('shows').where('code', HOLD_SHOW_CODE).delete();
  await knex('customers').where('email_normalized', 'like', `%@${HOLD_EMAIL_DOMAIN}`).delete();
}

/** A published show with one dinner-and-show offer (1,500,000 ₫ a guest, 1–10 guests), written straight into the tables. */
export async function insertShowWithOffer(knex: Knex, codes: { show: string; slug: string; offer: string; title: string }): Promise<{ show: { id: string }; offer: { id: string } }> {
  const [show] = await knex('shows')
    .insert({ code: codes.show, slug: codes.slug, status: 'PUBLISHED', title: JSON.stringify({ en: codes.title, vi: codes.title }), summary: '{}', description: '{}', duration_minutes: 90, published_at: new Date() })
    .returning('id');
  const [offer] = await knex('offers')
    .insert({ code: codes.offer, show_id: show.id, name: JSON.stringify({ en: 'Dinner and show' }), description: '{}', booking_path: 'DINNER_SHOW', experience_type: 'STANDARD', price_per_guest_vnd: 1_500_000, min_guests: 1, max_guests: 10 })
    .returning('id');
  return { show, offer };
}

/** One CONFIRMED booking of `guests` seats (the house's), taking all but the last seats of an event. */
export async function insertHouseBooking(knex: Knex, row: { eventId: string; offerId: string; customerId: string; guests: number }): Promise<void> {
  const price = breakdown(1_500_000, row.guests, { serviceChargePercent: 5, vatPercent: 8 });
  await knex('reservations').insert({
    reference: newReservationReference(),
    show_event_id: row.eventId,
    offer_id: row.offerId,
    customer_id: row.customerId,
    guest_count: row.guests,
    status: 'CONFIRMED',
    confirmed_at: new Date(),
    price_per_guest_vnd: price.pricePerGuestVnd,
    subtotal_vnd: price.subtotalVnd,
    service_charge_vnd: price.serviceChargeVnd,
    vat_vnd: price.vatVnd,
    total_vnd: price.totalVnd,
    service_charge_percent: 5,
    vat_percent: 8,
    booking_path: 'DINNER_SHOW',
    access_token_hash: createHash('sha256').update(randomBytes(32)).digest(),
  });
}

export async function seedHoldBench(knex: Knex): Promise<HoldBench> {
  await removeHoldBench(knex);
  const { show, offer } = await insertShowWithOffer(knex, { show: HOLD_SHOW_CODE, slug: 'hbench-hold-show', offer: HOLD_OFFER_CODE, title: 'Hold bench' });
  const startsAt = (day: number) => new Date(Date.now() + (7 + day) * 86_400_000);
  const event = async (slug: string, capacity: number, day: number) =>
    (await knex('show_events').insert({ show_id: show.id, slug, starts_at: startsAt(day), capacity, sales_open: true }).returning(['id', 'slug', 'capacity']))[0];
  const [customer] = await knex('customers')
    .insert({ name: 'Bench house booking', email: `house@${HOLD_EMAIL_DOMAIN}`, email_normalized: `house@${HOLD_EMAIL_DOMAIN}` })
    .returning('id');
  const contention: HoldBench['contention'] = [];
  for (let round = 0; round < CONTENTION_ROUNDS; round++) {
    const row = await event(`hbench-hold-show-contention-${round}`, CONTENTION_CAPACITY, round);
    await insertHouseBooking(knex, { eventId: row.id, offerId: offer.id, customerId: customer.id, guests: CONTENTION_CAPACITY - CONTENTION_LEFT });
    contention.push(row);
  }
  const throughput = await event('hbench-hold-show-throughput', 100_000, 10);
  return { offerCode: HOLD_OFFER_CODE, contention, throughput: throughput.slug };
}

/** One hold request's body: a guest of its own (`n`) for one seat. */
export const holdBody = (slug: string, n: number) => ({
  eventSlug: slug,
  offerCode: HOLD_OFFER_CODE,
  guestCount: 1,
  contact: { name: `Bench guest ${n}`, email: `guest-${n}@${HOLD_EMAIL_DOMAIN}`, phone: '+84 90 000 0000', locale: 'en' },
});

/** A query runner inside one transaction (pg's client or PGlite's transaction). */
export type Query = (sql: string, params: unknown[]) => Promise<Array<Record<string, any>>>;

export class HoldRefused extends Error {
  constructor(readonly status: number, readonly code: string) {
    super(code);
  }
}

/**
 * createHold (server/modules/booking/commands/createHold.ts) as its SQL, for a contact: the event row locked, the setup and
 * the offer read and checked, the customer upserted with its e-mail history, the seats counted with the same
 * expression, a free reference found, the HELD reservation written. The caller runs it inside BEGIN/COMMIT.
 */
let jobTable: boolean | undefined;

export async function directHold(query: Query, body: ReturnType<typeof holdBody>, now = new Date()) {
  const [event] = await query(
    `select e.id, e.show_id, e.slug, e.starts_at, e.capacity, e.sales_open, e.status, s.status as show_status
       from show_events e join shows s on s.id = e.show_id where e.slug = $1 for update of e`,
    [body.eventSlug],
  );
  if (!event || event.show_status !== 'PUBLISHED') throw new HoldRefused(404, 'not_found');
  const [setup] = await query('select * from commercial_setup where id = 1', []);
  if (event.status !== 'SCHEDULED' || !event.sales_open) throw new HoldRefused(409, 'event_not_bookable');
  if (now.getTime() >= new Date(event.starts_at).getTime() - Number(setup.booking_cutoff_minutes) * 60_000) throw new HoldRefused(409, 'booking_closed');
  const [offer] = await query('select * from offers where code = $1', [body.offerCode]);
  if (!offer || offer.status !== 'ACTIVE' || (offer.show_id !== null && offer.show_id !== event.show_id)) throw new HoldRefused(422, 'offer_unavailable');
  if (body.guestCount < offer.min_guests || body.guestCount > offer.max_guests) throw new HoldRefused(422, 'guest_count_out_of_range');
  const email = body.contact.email.trim();
  const normalized = email.toLowerCase();
  const [customer] = await query(
    `insert into customers (honorific, name, email, email_normalized, phone, locale) values ($1, $2, $3, $4, $5, $6)
     on conflict (email_normalized) where not is_deleted do update set name = excluded.name, email = excluded.email,
       honorific = coalesce(excluded.honorific, customers.honorific), phone = coalesce(excluded.phone, customers.phone),
       locale = coalesce(excluded.locale, customers.locale), updated_at = now()
     returning id`,
    [null, body.contact.name, email, normalized, body.contact.phone, body.contact.locale],
  );
  await query(
    `insert into customer_emails (customer_id, email, email_normalized) values ($1, $2, $3)
     on conflict (customer_id, email_normalized) do update set last_seen_at = now(), email = excluded.email`,
    [customer.id, email, normalized],
  );
  const [taken] = await query(
    `select coalesce(sum(r.guest_count), 0)::integer as seats from reservations r
      where r.show_event_id = $1 and (r.status in ('CONFIRMED', 'CHECKED_IN') or (r.status = 'HELD' and r.hold_expires_at > $2))`,
    [event.id, now],
  );
  const left = event.capacity - Number(taken.seats);
  if (left <= 0) throw new HoldRefused(409, 'sold_out');
  if (left < body.guestCount) throw new HoldRefused(409, 'not_enough_seats');
  const serviceChargePercent = Number(setup.service_charge_percent);
  const vatPercent = Number(setup.vat_percent);
  const price = breakdown(offer.price_per_guest_vnd, body.guestCount, { serviceChargePercent, vatPercent });
  let reference = newReservationReference();
  while ((await query('select id from reservations where reference = $1', [reference])).length) reference = newReservationReference();
  const accessToken = randomBytes(32).toString('base64url');
  const holdExpiresAt = new Date(now.getTime() + Number(setup.hold_minutes) * 60_000);
  const [row] = await query(
    `insert into reservations (reference, show_event_id, offer_id, customer_id, guest_count, status, hold_expires_at,
       price_per_guest_vnd, subtotal_vnd, discount_vnd, service_charge_vnd, vat_vnd, total_vnd, service_charge_percent, vat_percent,
       booking_path, experience_type, locale, access_token_hash, created_at, updated_at)
     values ($1, $2, $3, $4, $5, 'HELD', $6, $7, $8, 0, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18) returning id`,
    [
      reference, event.id, offer.id, customer.id, body.guestCount, holdExpiresAt, price.pricePerGuestVnd, price.subtotalVnd,
      price.serviceChargeVnd, price.vatVnd, price.totalVnd, serviceChargePercent, vatPercent, offer.booking_path,
      offer.experience_type, body.contact.locale, createHash('sha256').update(accessToken).digest(), now,
    ],
  );
  // The hold's expiry job, written in the same transaction as the app does (pg-boss's job table, the queue's
  // retry policy), so both sides run the same transaction. (A database without the job schema — the embedded
  // copy this side seeds for itself — has no queue to write to.)
  jobTable ??= (await query(`select to_regclass('pgboss.job') is not null as present`, []))[0].present === true;
  if (jobTable) await query(
    `insert into pgboss.job (name, data, start_after, retry_limit, retry_delay, retry_backoff, expire_in, policy)
     values ('booking.expire-holds', $1, $2, 5, 30, true, interval '60 seconds', 'standard')`,
    [JSON.stringify({ reservationId: row.id }), holdExpiresAt],
  );
  return { id: row.id as string, reference, totalVnd: price.totalVnd, holdExpiresAt: holdExpiresAt.toISOString(), accessToken };
}
