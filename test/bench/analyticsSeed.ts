/**
 * The data of the analytics rows (A1–A3), bulk-written through SQL (the bench only): 20 shows with 50 past events
 * each, two offers per show, 100,000 customers, 500,000 reservations created over the last two years (statuses
 * mixed as a venue sees them; customers drawn with a skew, so many book more than once), a SUCCEEDED payment for
 * each confirmed reservation (5 % refunded in part), and 200,000 leads. Show codes start with `BA`, slugs with
 * `bench-an-`, e-mails end in `@bench-analytics.invalid`, references with `VN-Z`: a run over a real PostgreSQL
 * database removes exactly what it wrote.
 */
import type { Knex } from 'knex';

// BENCH_ANALYTICS_SCALE (default 1) shrinks the data set for a quick check of the bench itself.
const SCALE = Math.min(1, Number(process.env.BENCH_ANALYTICS_SCALE) || 1);
export const ANALYTICS_CUSTOMERS = Math.round(100_000 * SCALE);
export const ANALYTICS_RESERVATIONS = Math.round(500_000 * SCALE);
const SHOWS = 20;
const EVENTS_PER_SHOW = 50;
const LEADS = Math.round(200_000 * SCALE);

const scopeShows = (knex: Knex) => knex('shows').select('id').where('code', 'like', 'BA%').andWhere('slug', 'like', 'bench-an-%');

export async function removeAnalyticsSeed(knex: Knex): Promise<void> {
  await knex.raw(`delete from refunds where payment_id in (select id from payments where txn_ref like 'BENCHAN-%')`);
  await knex.raw(`delete from payments where txn_ref like 'BENCHAN-%'`);
  await knex.raw(`delete from reservations where reference like 'VN-Z%' and show_event_id in (select id from show_events where show_id in (${scopeShows(knex).toString()}))`);
  await knex.raw(`delete from customer_leads where customer_id in (select id from customers where email_normalized like '%@bench-analytics.invalid')`);
  await knex.raw(`delete from customers where email_normalized like '%@bench-analytics.invalid'`);
  await knex('offers').where('code', 'like', 'BAOFFER%').delete();
  await knex('show_events').whereIn('show_id', scopeShows(knex)).delete();
  await knex('shows').whereIn('id', scopeShows(knex)).delete();
}

/** Writes the data set (after removing an earlier run's); answers what it wrote. */
export async function seedAnalytics(knex: Knex): Promise<{ customers: number; reservations: number; payments: number; leads: number }> {
  await removeAnalyticsSeed(knex);
  await knex.raw(`
    insert into shows (code, slug, status, title, duration_minutes, published_at)
    select 'BA' || lpad(n::text, 2, '0'), 'bench-an-' || n, 'PUBLISHED', jsonb_build_object('en', 'Bench show ' || n), 90, now()
      from generate_series(1, ${SHOWS}) n`);
  await knex.raw(`
    insert into offers (code, show_id, name, booking_path, experience_type, price_per_guest_vnd)
    select 'BAOFFER' || s.code || p.path, s.id, jsonb_build_object('en', p.path), p.path, 'STANDARD', 1200000
      from shows s cross join (values ('DINNER_SHOW'), ('SHOW_ONLY')) p(path)
     where s.code like 'BA%' and s.slug like 'bench-an-%'`);
  await knex.raw(`
    insert into show_events (show_id, slug, starts_at, capacity, sales_open, status)
    select s.id, s.slug || '-' || e, now() - make_interval(days => e * 14), 200, false, 'COMPLETED'
      from shows s cross join generate_series(1, ${EVENTS_PER_SHOW}) e
     where s.code like 'BA%' and s.slug like 'bench-an-%'`);
  await knex.raw(`
    insert into customers (name, email, email_normalized, phone)
    select 'Bench Guest ' || n, 'bench' || n || '@bench-analytics.invalid', 'bench' || n || '@bench-analytics.invalid', '+84 90 ' || lpad(n::text, 7, '0')
      from generate_series(1, ${ANALYTICS_CUSTOMERS}) n`);
  // Reservations: n → a customer drawn with a skew (the square makes low numbers frequent: repeat guests), an event,
  // an offer, a status and a creation time in the last 730 days.
  await knex.raw(`
    with c as (select id, row_number() over (order by id) as k from customers where email_normalized like '%@bench-analytics.invalid'),
         e as (select id, show_id, row_number() over (order by id) as k from show_events where slug like 'bench-an-%'),
         o as (select id, show_id, booking_path from offers where code like 'BAOFFER%'),
         g as (
           select n, r1, r2, r3,
                  1 + floor(power(r1, 2) * ${ANALYTICS_CUSTOMERS})::int % ${ANALYTICS_CUSTOMERS} as ck,
                  1 + (n % ${SHOWS * EVENTS_PER_SHOW}) as ek,
                  now() - make_interval(secs => r2 * 730 * 86400) as created
             from (select n, random() as r1, random() as r2, random() as r3 from generate_series(1, ${ANALYTICS_RESERVATIONS}) n) x
         ),
         s as (
           select g.*, case when r3 < 0.60 then 'CONFIRMED' when r3 < 0.70 then 'CHECKED_IN' when r3 < 0.80 then 'CANCELLED'
                            when r3 < 0.90 then 'EXPIRED' when r3 < 0.95 then 'NO_SHOW' else 'HELD' end as status,
                  1 + (n % 6) as guests
             from g
         )
    insert into reservations (reference, show_event_id, offer_id, customer_id, guest_count, status, hold_expires_at,
                              price_per_guest_vnd, subtotal_vnd, service_charge_vnd, vat_vnd, total_vnd, service_charge_percent, vat_percent,
                              booking_path, access_token_hash, confirmed_at, checked_in_at, cancelled_at, no_show_at, created_at, updated_at)
    select 'VN-Z' || lpad(upper(to_hex(s.n)), 5, '0'), e.id, o.id, c.id, s.guests, s.status,
           case when s.status = 'HELD' then s.created + interval '15 minutes' end,
           1200000, 1200000 * s.guests, 0, 0, 1200000 * s.guests, 0, 0, o.booking_path, decode(md5(s.n::text), 'hex'),
           case when s.status in ('CONFIRMED', 'CHECKED_IN', 'NO_SHOW') or (s.status = 'CANCELLED' and s.n % 2 = 0) then s.created + interval '10 minutes' end,
           case when s.status = 'CHECKED_IN' then s.created + interval '1 day' end,
           case when s.status = 'CANCELLED' then s.created + interval '2 days' end,
           case when s.status = 'NO_SHOW' then s.created + interval '1 day' end,
           s.created, s.created
      from s join c on c.k = s.ck join e on e.k = s.ek
      join o on o.show_id = e.show_id and o.booking_path = case when s.n % 4 = 0 then 'SHOW_ONLY' else 'DINNER_SHOW' end`);
  await knex.raw(`
    insert into payments (reservation_id, gateway, status, amount_vnd, refunded_vnd, txn_ref, succeeded_at, created_at, updated_at)
    select r.id, (array['VNPAY', 'BANK_TRANSFER', 'CASH', 'CARD_ON_SITE'])[1 + (abs(hashtext(r.reference)) % 4)],
           case when abs(hashtext(r.reference)) % 20 = 0 then 'PARTIALLY_REFUNDED' else 'SUCCEEDED' end,
           r.total_vnd, case when abs(hashtext(r.reference)) % 20 = 0 then 500000 else 0 end,
           'BENCHAN-' || r.reference, r.confirmed_at, r.confirmed_at, r.confirmed_at
      from reservations r
     where r.reference like 'VN-Z%' and r.confirmed_at is not null`);
  await knex.raw(`
    insert into refunds (payment_id, amount_vnd, status, requested_by, completed_at, created_at, updated_at)
    select p.id, 500000, 'SUCCEEDED', 'STAFF', p.created_at + interval '3 days', p.created_at + interval '3 days', p.created_at + interval '3 days'
      from payments p where p.txn_ref like 'BENCHAN-%' and p.status = 'PARTIALLY_REFUNDED'`);
  await knex.raw(`
    with c as (select id, row_number() over (order by id) as k from customers where email_normalized like '%@bench-analytics.invalid')
    insert into customer_leads (customer_id, name, email, reference_hash, expires_at, created_at)
    select c.id, 'Bench lead', 'lead-' || n || '@bench-analytics.invalid', decode(md5('bench-lead-' || n), 'hex'), now(), now() - make_interval(secs => random() * 730 * 86400)
      from generate_series(1, ${LEADS}) n join c on c.k = 1 + (n % ${ANALYTICS_CUSTOMERS})`);
  await settle(knex);
  return countAnalyticsSeed(knex);
}

/**
 * VACUUM ANALYZE the tables, as autovacuum would have by the time anyone reads a dashboard: statistics for the
 * planner, and the visibility map that lets index-only scans skip the heap (right after a bulk insert every
 * index-only scan still visits it).
 */
export async function settle(knex: Knex): Promise<void> {
  await knex.raw('vacuum analyze customers, customer_leads, reservations, payments, refunds, show_events, shows');
}

/** What the seed holds now (zeros when it was never written). */
export async function countAnalyticsSeed(knex: Knex): Promise<{ customers: number; reservations: number; payments: number; leads: number }> {
  const count = async (sql: string) => Number(((await knex.raw(sql)) as { rows: Array<{ n: string }> }).rows[0].n);
  return {
    customers: await count(`select count(*) as n from customers where email_normalized like '%@bench-analytics.invalid'`),
    reservations: await count(`select count(*) as n from reservations where reference like 'VN-Z%'`),
    payments: await count(`select count(*) as n from payments where txn_ref like 'BENCHAN-%'`),
    leads: await count(`select count(*) as n from customer_leads where customer_id in (select id from customers where email_normalized like '%@bench-analytics.invalid')`),
  };
}
