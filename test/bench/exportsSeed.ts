/**
 * The data of the exports row (E1, issue 36 §2), bulk-written through SQL (the bench only): one show with 50
 * performances, one offer, BENCH_EXPORT_ROWS / 4 customers with Vietnamese names, BENCH_EXPORT_ROWS reservations
 * (default 100,000; mostly CONFIRMED, with notes) and a SUCCEEDED payment for every other one. The show code is
 * `BX01`, its slug starts with `bench-ex-`, e-mails end in `@bench-exports.invalid`, references start with `VN-X`
 * (then five hex digits, so at most 1,048,575 rows): a run over a real PostgreSQL database removes exactly what it
 * wrote.
 */
import type { Knex } from 'knex';

export const EXPORT_ROWS = Math.min(1_048_575, Math.max(1, Math.round(Number(process.env.BENCH_EXPORT_ROWS) || 100_000)));

const scopeShow = (knex: Knex) => knex('shows').select('id').where({ code: 'BX01' }).andWhere('slug', 'like', 'bench-ex-%');

export async function removeExportsSeed(knex: Knex): Promise<void> {
  await knex.raw(`delete from payments where txn_ref like 'BENCHEX-%'`);
  await knex.raw(`delete from reservations where reference like 'VN-X%' and show_event_id in (select id from show_events where show_id in (${scopeShow(knex).toString()}))`);
  await knex.raw(`delete from customers where email_normalized like '%@bench-exports.invalid'`);
  await knex('offers').where({ code: 'BXOFFER' }).delete();
  await knex('show_events').whereIn('show_id', scopeShow(knex)).delete();
  await knex('shows').whereIn('id', scopeShow(knex)).delete();
}

/** Writes the data set (after removing an earlier run's); answers what it wrote. */
export async function seedExports(knex: Knex, rows = EXPORT_ROWS): Promise<{ customers: number; reservations: number; payments: number }> {
  await removeExportsSeed(knex);
  const customers = Math.max(1, Math.ceil(rows / 4));
  await knex.raw(`
    insert into shows (code, slug, status, title, duration_minutes, published_at)
    values ('BX01', 'bench-ex-show', 'PUBLISHED', '{"en": "Saigon Nights (bench)", "vi": "Đêm Sài Gòn (bench)"}', 90, now())`);
  await knex.raw(`
    insert into offers (code, show_id, name, booking_path, experience_type, price_per_guest_vnd)
    select 'BXOFFER', id, '{"en": "Dinner and show", "vi": "Ăn tối và xem diễn"}', 'DINNER_SHOW', 'STANDARD', 1500000 from shows where code = 'BX01'`);
  await knex.raw(`
    insert into show_events (show_id, slug, starts_at, capacity, sales_open, status)
    select s.id, 'bench-ex-' || e, now() + make_interval(days => e), 100000, true, 'SCHEDULED'
      from shows s cross join generate_series(1, 50) e where s.code = 'BX01'`);
  await knex.raw(`
    insert into customers (name, email, email_normalized, phone)
    select 'Nguyễn Thị Khách ' || n, 'guest' || n || '@bench-exports.invalid', 'guest' || n || '@bench-exports.invalid', '+84 90 ' || lpad(n::text, 7, '0')
      from generate_series(1, ${customers}) n`);
  await knex.raw(`
    with c as (select id, row_number() over (order by id) as k from customers where email_normalized like '%@bench-exports.invalid'),
         e as (select id, row_number() over (order by id) as k from show_events where slug like 'bench-ex-%'),
         o as (select id from offers where code = 'BXOFFER')
    insert into reservations (reference, show_event_id, offer_id, customer_id, guest_count, status, price_per_guest_vnd, subtotal_vnd,
                              service_charge_vnd, vat_vnd, total_vnd, service_charge_percent, vat_percent, booking_path, access_token_hash,
                              customer_note, staff_notes, created_at, updated_at, confirmed_at)
    select 'VN-X' || lpad(upper(to_hex(n)), 5, '0'), e.id, o.id, c.id, 1 + n % 6,
           case when n % 10 = 0 then 'CANCELLED' else 'CONFIRMED' end,
           1500000, 1500000 * (1 + n % 6), 75000 * (1 + n % 6), 126000 * (1 + n % 6), 1701000 * (1 + n % 6), 5, 8, 'DINNER_SHOW',
           decode(md5(n::text), 'hex'),
           case when n % 3 = 0 then 'Ghi chú của khách: ăn chay, không hành, kỷ niệm ' || n end,
           case when n % 7 = 0 then 'Bàn gần sân khấu' end,
           now() - make_interval(secs => n), now() - make_interval(secs => n), now() - make_interval(secs => n)
      from generate_series(1, ${rows}) n
      join c on c.k = 1 + (n % ${customers})
      join e on e.k = 1 + (n % 50)
      cross join o`);
  await knex.raw(`
    insert into payments (reservation_id, gateway, status, amount_vnd, refunded_vnd, txn_ref, succeeded_at, created_at, updated_at)
    select r.id, 'VNPAY', 'SUCCEEDED', r.total_vnd, 0, 'BENCHEX-' || r.reference, r.created_at, r.created_at, r.created_at
      from reservations r where r.reference like 'VN-X%' and abs(hashtext(r.reference)) % 2 = 0`);
  // Statistics, as PostgreSQL's autovacuum would gather after a bulk load: without them the planner guesses a few
  // hundred rows and reads each batch with sequential scans and hash joins over the whole table. The embedded
  // database runs no autovacuum (docs/flows/exports.md).
  await knex.raw('vacuum analyze customers, reservations, payments, show_events, shows, offers');
  const count = async (sql: string) => Number(((await knex.raw(sql)) as { rows: Array<{ n: string | number }> }).rows[0].n);
  return {
    customers: await count(`select count(*) as n from customers where email_normalized like '%@bench-exports.invalid'`),
    reservations: await count(`select count(*) as n from reservations where reference like 'VN-X%'`),
    payments: await count(`select count(*) as n from payments where txn_ref like 'BENCHEX-%'`),
  };
}
