import type { Knex } from 'knex';
import { addDays, localDateRange, localToday } from '../../domain/venueTime.ts';
import type { Database } from '../../platform/db/database.ts';
import { Unprocessable } from '../../platform/http/problem.ts';

/**
 * The aggregate reads of the dashboards (issue 11; spec §4.4, §6.4). Every figure is computed in SQL from the
 * reservations booked (created) in a range of local dates; rows about people never leave the database: the
 * queries return counts and sums only, and customer intelligence deduplicates people by normalized e-mail inside
 * its query. Money is whole VND: a reservation's net revenue is its SUCCEEDED payments (partially or fully
 * refunded ones included) minus their SUCCEEDED refunds. Indexes and plans: migrations/20261130000000_analytics.ts.
 */

export const MAX_RANGE_DAYS = 366;
/** Figures describing fewer people than this are suppressed (customer intelligence). */
export const MIN_GROUP_SIZE = 5;

/** Reservations that are bookings in the summary's and the ranking's sense: confirmed, and not cancelled since. */
const KEPT = `('CONFIRMED', 'CHECKED_IN', 'NO_SHOW')`;
const PAID = `('SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED')`;
export const STATUSES = ['HELD', 'CONFIRMED', 'CHECKED_IN', 'CANCELLED', 'EXPIRED', 'NO_SHOW'] as const;
export const GATEWAYS = ['VNPAY', 'BANK_TRANSFER', 'CASH', 'CARD_ON_SITE'] as const;

export interface DateRange {
  from: string;
  to: string;
  timezone: string;
  start: Date;
  end: Date;
}

/** `from`..`to` (local dates, inclusive) checked; default the 30 days ending today (or ending `to`). */
export function resolveRange(query: { from?: string; to?: string }, timezone: string, now = new Date()): DateRange {
  const to = query.to ?? localToday(timezone, now);
  const from = query.from ?? addDays(to, -29);
  let bounds: { start: Date; end: Date };
  try {
    bounds = localDateRange(from, to, timezone);
  } catch {
    throw Unprocessable('invalid_range', 'from and to must be calendar dates.', [{ path: 'query/from', message: 'not a calendar date', code: 'invalid_range' }]);
  }
  if (from > to) throw Unprocessable('invalid_range', 'from must not be after to.', [{ path: 'query/from', message: 'after to', code: 'invalid_range' }]);
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  if (days > MAX_RANGE_DAYS) {
    throw Unprocessable('invalid_range', `A range covers at most ${MAX_RANGE_DAYS} days.`, [{ path: 'query/from', message: `more than ${MAX_RANGE_DAYS} days before to`, code: 'invalid_range' }]);
  }
  return { from, to, timezone, ...bounds };
}

const num = (value: unknown): number => (value == null ? 0 : Number(value));
const rangeOut = (range: DateRange) => ({ from: range.from, to: range.to, timezone: range.timezone });

/**
 * The paid payments of the range's reservations (`booked`, a CTE with `id`), one row each: `paid` is the amount,
 * `refunded` the payment's `refunded_vnd` — the sum of its SUCCEEDED refunds, kept by the refund command under the
 * payment's row lock (migrations/20261127000000_payments.ts). Counts come from the reservations alone and money
 * from this one join, so a reservation with two payments is never counted twice.
 */
const PAID_PAYMENTS = `paid as (
    select b.*, p.gateway, p.amount_vnd::bigint as paid, p.refunded_vnd::bigint as refunded
      from booked b join payments p on p.reservation_id = b.id
     where p.status in ${PAID}
  )`;

async function rows<T>(knex: Knex, sql: string, bindings: unknown[]): Promise<T[]> {
  const result = (await knex.raw(sql, bindings as Knex.RawBinding[])) as { rows: T[] };
  return result.rows;
}

/**
 * Runs an aggregate's statements in one read-only transaction (one snapshot: the figures agree with each other)
 * with room for its hash joins and aggregates in memory (`work_mem`; PostgreSQL's 4 MB default spills a year of
 * payments to disk).
 */
export async function readAggregate<T>(knex: Knex, read: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return knex.transaction(
    async (trx) => {
      await aggregateSettings(trx);
      return read(trx);
    },
    { readOnly: true },
  );
}

/**
 * `work_mem` as above; JIT off: a year of customer intelligence costs enough for PostgreSQL to JIT-compile its
 * plans, which took longer (~150 ms) than the hash joins and aggregates it was meant to speed up.
 */
async function aggregateSettings(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`select set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`);
}

type Read<T> = (trx: Knex.Transaction) => Promise<T>;
/** The app's database as the aggregates need it: its knex and whether it is PostgreSQL. */
type AggregateDb = Pick<Database, 'knex' | 'kind'>;

/** Aggregates reading concurrently at once, per database (each holds up to three pool connections). */
const CONCURRENT_AGGREGATES = 2;
/**
 * Keyed by the database (its knex), not by the app, on purpose: the gate bounds what the aggregates hold of that
 * database's connection pool, whoever runs them (an app, the benchmarks, a spec calling `readConcurrently` with a
 * bare database), so it cannot be an app service.
 */
const gates = new WeakMap<Knex, { active: number; waiting: Array<() => void> }>();

/** How many concurrent aggregate reads run and wait on this database (for tests and diagnostics). */
export function aggregateGate(knex: Knex): { active: number; waiting: number } {
  const gate = gates.get(knex);
  return { active: gate?.active ?? 0, waiting: gate?.waiting.length ?? 0 };
}

async function gated<T>(knex: Knex, run: () => Promise<T>): Promise<T> {
  let gate = gates.get(knex);
  if (!gate) gates.set(knex, (gate = { active: 0, waiting: [] }));
  if (gate.active >= CONCURRENT_AGGREGATES) await new Promise<void>((resolve) => gate.waiting.push(resolve));
  else gate.active++;
  try {
    return await run();
  } finally {
    const next = gate.waiting.shift();
    if (next) next();
    else gate.active--;
  }
}

/**
 * Runs `prepare`, then `reads`, all in one snapshot (the figures agree with each other). On PostgreSQL the reads run
 * at once, each on its own connection in a read-only REPEATABLE READ transaction that imports the first one's
 * snapshot (`pg_export_snapshot()` / `SET TRANSACTION SNAPSHOT`, as pg_dump's parallel jobs do), so a long range
 * takes as long as its slowest statement rather than their sum; at most CONCURRENT_AGGREGATES such reads at a time,
 * so they can never hold every pool connection while waiting for more. On the embedded database (one connection)
 * they run one after another in one transaction.
 */
export async function readConcurrently<P, R extends unknown[]>(
  db: AggregateDb,
  prepare: Read<P>,
  reads: (prepared: P) => { [K in keyof R]: Read<R[K]> },
): Promise<[P, R]> {
  const knex = db.knex;
  if (db.kind !== 'postgres') {
    return readAggregate(knex, async (trx) => {
      const prepared = await prepare(trx);
      const out: unknown[] = [];
      for (const read of reads(prepared) as Array<Read<unknown>>) out.push(await read(trx));
      return [prepared, out as R];
    });
  }
  const options = { isolationLevel: 'repeatable read' as const, readOnly: true };
  return gated(knex, () =>
    knex.transaction(async (trx) => {
      await aggregateSettings(trx);
      const prepared = await prepare(trx);
      const [first, ...rest] = reads(prepared) as Array<Read<unknown>>;
      const { rows } = (await trx.raw('select pg_export_snapshot() as snapshot')) as { rows: Array<{ snapshot: string }> };
      const snapshot = rows[0].snapshot;
      // Settled, not raced: on a failure the other reads still end before this transaction (whose snapshot they
      // import) and the gate are released.
      const settled = await Promise.allSettled([
        first(trx),
        ...rest.map((read) =>
          knex.transaction(async (other) => {
            // A utility statement takes no parameters; the id is PostgreSQL's own (e.g. 00000003-0000001B-1).
            if (!/^[0-9A-F-]+$/i.test(snapshot)) throw new Error(`unexpected snapshot id ${snapshot}`);
            await other.raw(`set transaction snapshot '${snapshot}'`);
            await aggregateSettings(other);
            return read(other);
          }, options),
        ),
      ]);
      const failed = settled.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      return [prepared, settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as R];
    }, options),
  );
}

export async function summary(db: AggregateDb, range: DateRange) {
  const booked = `booked as (
    select id, status, guest_count, confirmed_at, checked_in_at, (created_at at time zone ?)::date as day
      from reservations where created_at >= ? and created_at < ?
  )`;
  const base = [range.timezone, range.start, range.end];
  type DayRow = { day: string; status: string; n: string; guests: string; confirmed: string; checked_in: string };
  type MoneyRow = { day: string | null; gateway: string | null; by_gateway: number; n: string; paid: string; refunded: string };
  const [, [byDayAndStatus, money, [leads]]] = await readConcurrently<null, [DayRow[], MoneyRow[], Array<{ n: string }>]>(db, async () => null, () => [
    (trx) =>
      rows<DayRow>(
        trx,
        `with ${booked}
         select to_char(day, 'YYYY-MM-DD') as day, status, count(*) as n, sum(guest_count) as guests,
                count(confirmed_at) as confirmed, count(checked_in_at) as checked_in
           from booked group by day, status`,
        base,
      ),
    // Money by day and by gateway in one pass over the paid payments (grouping sets).
    (trx) =>
      rows<MoneyRow>(
        trx,
        `with ${booked}, ${PAID_PAYMENTS}
         select to_char(day, 'YYYY-MM-DD') as day, gateway, grouping(day) as by_gateway, count(*) as n, sum(paid) as paid, sum(refunded) as refunded
           from paid group by grouping sets ((day), (gateway))`,
        base,
      ),
    (trx) => rows<{ n: string }>(trx, 'select count(*) as n from customer_leads where created_at >= ? and created_at < ?', [range.start, range.end]),
  ]);

  const byStatus = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<(typeof STATUSES)[number], number>;
  const days = new Map<string, { date: string; holds: number; bookings: number; guests: number; netRevenueVnd: number }>();
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) days.set(day, { date: day, holds: 0, bookings: 0, guests: 0, netRevenueVnd: 0 });
  let reservations = 0;
  let bookings = 0;
  let guests = 0;
  let confirmed = 0;
  let checkedIn = 0;
  for (const row of byDayAndStatus) {
    const n = num(row.n);
    const kept = row.status === 'CONFIRMED' || row.status === 'CHECKED_IN' || row.status === 'NO_SHOW';
    reservations += n;
    byStatus[row.status as keyof typeof byStatus] += n;
    confirmed += num(row.confirmed);
    checkedIn += num(row.checked_in);
    const day = days.get(row.day);
    if (day) day.holds += n;
    if (kept) {
      bookings += n;
      guests += num(row.guests);
      if (day) {
        day.bookings += n;
        day.guests += num(row.guests);
      }
    }
  }
  let paid = 0;
  let refunded = 0;
  const gateways = [];
  for (const row of money) {
    if (Number(row.by_gateway) === 1) {
      gateways.push({
        gateway: row.gateway as (typeof GATEWAYS)[number],
        payments: num(row.n),
        paidVnd: num(row.paid),
        refundedVnd: num(row.refunded),
        netVnd: num(row.paid) - num(row.refunded),
      });
    } else {
      paid += num(row.paid);
      refunded += num(row.refunded);
      const day = days.get(row.day!);
      if (day) day.netRevenueVnd += num(row.paid) - num(row.refunded);
    }
  }
  gateways.sort((a, b) => a.gateway.localeCompare(b.gateway));
  return {
    range: rangeOut(range),
    reservations,
    byStatus,
    bookings,
    guests,
    averagePartySize: bookings ? Math.round((guests / bookings) * 100) / 100 : null,
    revenue: { paidVnd: paid, refundedVnd: refunded, netVnd: paid - refunded },
    funnel: { leads: num(leads?.n), holds: reservations, confirmed, checkedIn },
    cancellations: byStatus.CANCELLED,
    noShows: byStatus.NO_SHOW,
    gateways,
    daily: [...days.values()],
  };
}

/** A show's title in the default locale (or its first one). */
export function titleIn(title: unknown, locale: string): string {
  const map = (typeof title === 'string' ? JSON.parse(title) : title) as Record<string, string> | null;
  if (!map) return '';
  return map[locale] ?? Object.values(map)[0] ?? '';
}

export type TopShowsSort = 'revenue' | 'guests' | 'bookings';

export async function topShows(knex: Knex, range: DateRange, sort: TopShowsSort, limit: number, locale: string) {
  const order = { revenue: 'revenue', guests: 'guests', bookings: 'bookings' }[sort];
  const result = await rows<{ id: string; code: string; slug: string; title: unknown; bookings: string; guests: string; revenue: string }>(
    knex,
    `with booked as (
       select r.id, r.status, r.guest_count, e.show_id
         from reservations r join show_events e on e.id = r.show_event_id
        where r.created_at >= ? and r.created_at < ?
     ), ${PAID_PAYMENTS},
     counts as (
       select show_id, count(*) filter (where status in ${KEPT}) as bookings,
              coalesce(sum(guest_count) filter (where status in ${KEPT}), 0) as guests
         from booked group by show_id
     ),
     money as (select show_id, sum(paid - refunded) as revenue from paid group by show_id),
     per_show as (
       select c.show_id, c.bookings, c.guests, coalesce(m.revenue, 0) as revenue
         from counts c left join money m on m.show_id = c.show_id
     )
     select s.id, s.code, s.slug, s.title, p.bookings, p.guests, p.revenue
       from per_show p join shows s on s.id = p.show_id
      order by p.${order} desc, s.code
      limit ?`,
    [range.start, range.end, limit],
  );
  return {
    range: rangeOut(range),
    sort,
    items: result.map((row) => ({
      showId: row.id,
      code: row.code,
      slug: row.slug,
      title: titleIn(row.title, locale),
      bookings: num(row.bookings),
      guests: num(row.guests),
      revenueVnd: num(row.revenue),
    })),
  };
}

// ---- customer intelligence -------------------------------------------------------------------------------------

export interface Count {
  value: number | null;
  suppressed: boolean;
}

const isSmall = (n: number) => n > 0 && n < MIN_GROUP_SIZE;
const shown = (value: number): Count => ({ value, suppressed: false });
const hidden = (): Count => ({ value: null, suppressed: true });

/**
 * Suppresses the parts of a published total: each part describing 1–4 people, then, while exactly one part is
 * suppressed (the total minus the others would give it away), the smallest remaining non-zero part too. A
 * suppressed total suppresses every non-zero part. Zero is never hidden (it describes no one).
 */
export function suppressParts(total: Count, parts: number[]): Count[] {
  if (total.suppressed) return parts.map((n) => (n === 0 ? shown(0) : hidden()));
  const out = parts.map((n) => (isSmall(n) ? hidden() : shown(n)));
  while (out.filter((c) => c.suppressed).length === 1) {
    let next = -1;
    parts.forEach((n, i) => {
      if (!out[i].suppressed && n > 0 && (next < 0 || n < parts[next])) next = i;
    });
    if (next < 0) break;
    out[next] = hidden();
  }
  return out;
}

const HISTOGRAM = ['1', '2', '3', '4', '5+'] as const;

/**
 * The CRM rows that share an address with another row (a soft-deleted customer and the live one, or several deleted
 * ones), each with the person they belong to: the smallest id among the rows with that address. Live addresses
 * are unique (customers_email_live_unique), so every shared address has a deleted row; this reads the deleted
 * rows' addresses and the rows holding them, usually none. Every other customer row is a person of its own, so
 * the aggregates below count people by `customer_id`, mapped through this list only when it is not empty, instead
 * of grouping a year of bookings by e-mail text (which took three times as long).
 */
async function sharedAddressPeople(knex: Knex): Promise<Array<{ id: string; person: string }>> {
  return rows(
    knex,
    `select id, person from (
       select c.id, first_value(c.id) over (partition by c.email_normalized order by c.id) as person
         from customers c where c.email_normalized in (select email_normalized from customers where is_deleted)
     ) s where id <> person`,
    [],
  );
}

export async function customerIntelligence(db: AggregateDb, range: DateRange, locale: string) {
  const bounds = [range.start, range.end];
  // `person` (a customer id standing for everyone with that address) is used for grouping and counting only; no
  // statement selects it. With shared addresses, `shared` maps their rows to one person each.
  const personOf = (shared: Array<{ id: string; person: string }>, alias: string) =>
    shared.length
      ? {
          person: `coalesce(sh.person, ${alias}.customer_id)`,
          join: `left join (select unnest(?::uuid[]) as id, unnest(?::uuid[]) as person) sh on sh.id = ${alias}.customer_id`,
          bindings: [shared.map((s) => s.id), shared.map((s) => s.person)],
        }
      : { person: `${alias}.customer_id`, join: '', bindings: [] };
  type Breakdown = { show_id: string | null; booking_path: string | null; by_path: number; v1: string; v2: string };
  const [, [[people], peopleRows, moneyRows]] = await readConcurrently<
    Array<{ id: string; person: string }>,
    [Array<Record<string, string>>, Breakdown[], Breakdown[]]
  >(db, sharedAddressPeople, (shared) => {
    const inRange = personOf(shared, 'r');
    const before = personOf(shared, 'p');
    return [
      // Active people (a confirmed booking made in the range), how many bookings each made, and which of them
      // had one before the range (returning).
      (trx) =>
        rows(
          trx,
          `with people as (
             select ${inRange.person} as person, count(*) as n from reservations r ${inRange.join}
              where r.created_at >= ? and r.created_at < ? and r.confirmed_at is not null group by 1
           ), returners as (
             select distinct ${before.person} as person from reservations p ${before.join}
              where p.confirmed_at is not null and p.created_at < ?
           )
           select count(*) as active, count(rt.person) as returners,
                  count(*) filter (where n = 1) as f1, count(*) filter (where n = 2) as f2, count(*) filter (where n = 3) as f3,
                  count(*) filter (where n = 4) as f4, count(*) filter (where n >= 5) as f5
             from people pe left join returners rt on rt.person = pe.person`,
          [...inRange.bindings, ...bounds, ...before.bindings, range.start],
        ),
      // People and bookings per show and per booking path, in one pass (grouping sets).
      (trx) =>
        rows(
          trx,
          `with booked as (
             select ${inRange.person} as person, e.show_id, r.booking_path
               from reservations r join show_events e on e.id = r.show_event_id ${inRange.join}
              where r.created_at >= ? and r.created_at < ? and r.confirmed_at is not null
           )
           select show_id::text as show_id, booking_path, grouping(show_id) as by_path, count(distinct person) as v1, count(*) as v2
             from booked group by grouping sets ((show_id), (booking_path))`,
          [...inRange.bindings, ...bounds],
        ),
      // Net revenue per show and per booking path from the bookings' paid payments. A payment is made for a
      // reservation that exists, so only payments created since the range began can belong to its bookings (the
      // filter halves the payments hashed for a year).
      (trx) =>
        rows(
          trx,
          `select e.show_id::text as show_id, r.booking_path, grouping(e.show_id) as by_path, sum(p.amount_vnd::bigint - p.refunded_vnd::bigint) as v1, 0 as v2
             from reservations r join show_events e on e.id = r.show_event_id join payments p on p.reservation_id = r.id
            where r.created_at >= ? and r.created_at < ? and r.confirmed_at is not null
              and p.status in ${PAID} and p.created_at >= ?
            group by grouping sets ((e.show_id), (r.booking_path))`,
          [...bounds, range.start],
        ),
    ];
  });
  const keyOf = (row: Breakdown) => `${Number(row.by_path) === 1 ? 'path' : 'show'}:${Number(row.by_path) === 1 ? row.booking_path : row.show_id}`;
  const money = new Map(moneyRows.map((row) => [keyOf(row), row.v1]));
  const revenueRows = peopleRows.map((row) => {
    const key = keyOf(row);
    const [kind, id] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
    return { kind, key: id, customers: row.v1, bookings: row.v2, revenue: money.get(key) ?? '0' };
  });
  const showIds = revenueRows.filter((row) => row.kind === 'show').map((row) => row.key);
  const shows = showIds.length ? await db.knex('shows').whereIn('id', showIds).select('id', 'code', 'title') : [];
  const showById = new Map(shows.map((show: { id: string; code: string; title: unknown }) => [show.id, show]));

  const activeN = num(people?.active);
  const returningN = num(people?.returners);
  const active = isSmall(activeN) ? hidden() : shown(activeN);
  const [newCount, returning] = suppressParts(active, [activeN - returningN, returningN]);
  const histogramN = [people?.f1, people?.f2, people?.f3, people?.f4, people?.f5].map(num);
  const repeatN = histogramN.slice(1).reduce((a, b) => a + b, 0);
  const [oneTime, repeat] = suppressParts(active, [histogramN[0], repeatN]);
  // The histogram's 2…5+ buckets add up to `repeat`; its "1" bucket is `oneTime` itself.
  const buckets = [oneTime, ...suppressParts(repeat, histogramN.slice(1))];
  const row = (r: { customers: string; bookings: string; revenue: string }) => {
    const customers = num(r.customers);
    const suppressed = active.suppressed || isSmall(customers);
    return suppressed
      ? { customers: null, bookings: null, revenueVnd: null, suppressed: true }
      : { customers, bookings: num(r.bookings), revenueVnd: num(r.revenue), suppressed: false };
  };
  return {
    range: rangeOut(range),
    minimumGroupSize: MIN_GROUP_SIZE,
    customers: { active, new: newCount, returning },
    returningRate: !active.suppressed && !returning.suppressed && activeN > 0 ? Math.round((returningN / activeN) * 10_000) / 10_000 : null,
    frequency: { oneTime, repeat, histogram: HISTOGRAM.map((bookings, i) => ({ bookings, customers: buckets[i] })) },
    revenueByShow: revenueRows
      .filter((r) => r.kind === 'show')
      .map((r) => {
        // Read after the snapshot: a show removed since then has no code or title left to show.
        const show = showById.get(r.key) as { id: string; code: string; title: unknown } | undefined;
        return { showId: r.key, code: show?.code ?? '', title: titleIn(show?.title ?? null, locale), ...row(r) };
      })
      .sort((a, b) => (b.revenueVnd ?? -1) - (a.revenueVnd ?? -1) || a.code.localeCompare(b.code)),
    revenueByBookingType: revenueRows
      .filter((r) => r.kind === 'path')
      .map((r) => ({ bookingPath: r.key, ...row(r) }))
      .sort((a, b) => (b.revenueVnd ?? -1) - (a.revenueVnd ?? -1) || a.bookingPath.localeCompare(b.bookingPath)),
  };
}

// ---- the server-side conversions' reads ------------------------------------------------------------------------

/** What a `Purchase` conversion needs of a paid reservation: its reference, its guest's contact and its event's slug. */
export async function purchaseFacts(trx: Knex.Transaction, reservationId: string): Promise<{ reference: string; email: string | null; phone: string | null; slug: string | null } | undefined> {
  return trx('reservations as r')
    .join('customers as c', 'c.id', 'r.customer_id')
    .join('show_events as e', 'e.id', 'r.show_event_id')
    .where('r.id', reservationId)
    .first('r.reference', 'c.email', 'c.phone', 'e.slug');
}
