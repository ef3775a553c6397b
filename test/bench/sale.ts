/**
 * Bench row R3, "a sale" (issue 37 §3; `BENCH_ONLY=R3 npm run bench`, or `node --import tsx test/bench/sale.ts`):
 * two API processes and one worker (`PROCESS_ROLE` api, api, worker; `node server/start.js` each, development mode
 * for the payment sandbox) on one fresh PostgreSQL database, behind the bench's round-robin keep-alive balancer
 * (test/bench/cluster.ts). `BENCH_SALE_GUESTS` (1,000) guests arrive, evenly spread over `BENCH_SALE_SECONDS` (10),
 * for the last `BENCH_SALE_SEATS` (100) seats of a performance, each from an address of its own:
 *
 * - each asks for one seat (POST /api/public/reservations);
 * - held: every other one pays through the payment sandbox (checkout, then the sandbox's pay page: the IPN confirms
 *   it), one in `BENCH_SALE_CANCEL_EVERY` (10) of those arriving in the first half of the window cancels at once
 *   (its seat goes back on sale while guests still arrive), the rest keep their hold;
 * - refused `sold_out` / `not_enough_seats`: joins the waiting list (POST /api/waitlist); 429: counted as refused.
 *
 * Meanwhile the event's public page is asked for from each API process directly every 50 ms. It asserts: exactly the
 * seats on sale taken (the domain's count: CONFIRMED, live HELD, and the waiting list's open offers, which hold a
 * seat given back for the guest they notify), 0 oversold, 0 5xx, every refusal a
 * `sold_out`/`not_enough_seats` or a 429, each confirmed payment's reservation CONFIRMED, one waiting-list entry
 * per refused guest who joined, and both processes' page, asked for within 1 s of the last seat taken (the last
 * hold answered 201, or a later waiting-list offer), showing SOLD_OUT (the invalidation channel between processes).
 * It prints p50/p99 per operation.
 */
import knexFactory, { type Knex } from 'knex';
import { seatsTakenSql } from '../../server/domain/availability.ts';
import { insertHouseBooking, insertShowWithOffer } from './holdSeed.ts';
import { call, envNumber, freshDatabase, percentile, postgresAnswers, startBalancer, startServer, stopCluster, tempDir, runWhenMain, type Answer, type ServerProcess } from './cluster.ts';

const GUESTS = envNumber('BENCH_SALE_GUESTS', 1000);
const SECONDS = envNumber('BENCH_SALE_SECONDS', 10);
const SEATS = envNumber('BENCH_SALE_SEATS', 100);
const CANCEL_EVERY = envNumber('BENCH_SALE_CANCEL_EVERY', 10);
/** Only guests arriving in the first half cancel: a seat given back then is taken again by those still arriving. */
const CANCEL_BEFORE = 0.5;
/** How soon both processes' catalog must show the last seat gone (issue 37 §3). */
const SOLD_OUT_WITHIN_MS = 1000;
const CAPACITY = SEATS + 400;
const SHOW_CODE = 'RSALE';
const OFFER_CODE = 'RSALE-DINNER';
const EVENT_SLUG = 'rsale-the-last-seats';

/** The performance: a published show, one offer, one event of CAPACITY seats of which all but SEATS are sold. */
export async function seedSale(knex: Knex): Promise<{ eventId: string }> {
  const { show, offer } = await insertShowWithOffer(knex, { show: SHOW_CODE, slug: 'rsale-show', offer: OFFER_CODE, title: 'The sale' });
  const [event] = await knex('show_events').insert({ show_id: show.id, slug: EVENT_SLUG, starts_at: new Date(Date.now() + 14 * 86_400_000), capacity: CAPACITY, sales_open: true }).returning('id');
  const [house] = await knex('customers').insert({ name: 'House booking', email: 'house@rsale.example.com', email_normalized: 'house@rsale.example.com' }).returning('id');
  await insertHouseBooking(knex, { eventId: event.id, offerId: offer.id, customerId: house.id, guests: CAPACITY - SEATS });
  // Checkout offers VNPay (here: the development sandbox).
  await knex('commercial_setup').update({ payment_gateways: JSON.stringify(['VNPAY']) });
  return { eventId: event.id };
}

/**
 * The seats the event's bookings take now, by the domain's own expression (server/domain/availability.ts: CONFIRMED,
 * CHECKED_IN and live HELD reservations, and the waiting list's open offers, which hold a seat given back for the
 * guest they notified).
 */
export async function seatsTaken(knex: Knex, eventId: string): Promise<{ seats: number; offered: number }> {
  const now = new Date();
  const [row] = await knex('show_events as e').where('e.id', eventId).select(knex.raw('? as seats', [seatsTakenSql(knex, 'e.id', now)]));
  const [offers] = await knex('waitlist_entries').where({ show_event_id: eventId, status: 'NOTIFIED' }).andWhere('offer_expires_at', '>', now).sum({ offered: 'guest_count' });
  return { seats: Number(row.seats), offered: Number(offers.offered ?? 0) };
}

/** When the last waiting-list offer was made (database clock; 0 when none): it holds a seat given back. */
async function lastOfferAt(knex: Knex, eventId: string): Promise<number> {
  const [offered] = await knex('waitlist_entries').where({ show_event_id: eventId, status: 'NOTIFIED' }).max({ at: 'notified_at' });
  return new Date(offered.at ?? 0).getTime();
}

type Operation = 'hold' | 'checkout' | 'pay' | 'cancel' | 'waitlist';

interface GuestOutcome {
  held: boolean;
  paid: boolean;
  cancelled: boolean;
  joined: boolean;
  refusal?: string;
}

export async function saleRow() {
  if (!postgresAnswers()) {
    console.log('R3  a sale: skipped (no PostgreSQL answering on BENCH_PG_HOST:BENCH_PG_PORT, 127.0.0.1:5432 by default)');
    return undefined;
  }
  const database = freshDatabase('bench_sale');
  const dir = tempDir('sale');
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'development', LOG_LEVEL: 'info', DATABASE_URL: database.url, DATA_DIR: dir, TRUST_PROXY: 'true', SEED_ON_START: 'false', VNPAY_SANDBOX: 'true' };
  const servers: ServerProcess[] = [];
  const knex = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
  let balancer: Awaited<ReturnType<typeof startBalancer>> | undefined;
  try {
    // The balancer first: the worker's chat turns call the API through it (ASSISTANT_API_BASE_URL).
    balancer = await startBalancer();
    env.ASSISTANT_API_BASE_URL = balancer.url;
    // Then the worker: it migrates the fresh database (the others would wait on the migration lock anyway).
    servers.push(await startServer('worker', 'worker', env, dir));
    const { eventId } = await seedSale(knex);
    // The API processes start on the seeded performance (and prime on it, writing nothing).
    servers.push(await startServer('api-1', 'api', env, dir), await startServer('api-2', 'api', env, dir));
    const apis = servers.filter((s) => s.role === 'api');
    for (const api of apis) balancer.add(api.port);
    console.log(`bench: R3 ${GUESTS} guests over ${SECONDS} s for the last ${SEATS} seats, 2 API processes + 1 worker on ${database.name}, logs in ${dir}`);

    const latencies = new Map<Operation, number[]>();
    const statuses = new Map<string, number>();
    const odd: string[] = [];
    const note = (operation: Operation, answer: Answer) => {
      (latencies.get(operation) ?? latencies.set(operation, []).get(operation)!).push(answer.ms);
      const key = `${operation} ${answer.status}${answer.body?.code ? ` ${answer.body.code}` : ''}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (answer.status >= 500) odd.push(`${key}: ${answer.text.slice(0, 200)}`);
    };
    // Each API process's page of the event, asked for directly every 50 ms while the guests come (each read sent on
    // time whatever the last one takes: a busy process answers late, but what it answers is what a guest asking at
    // that moment saw).
    const polls: Array<{ port: number; sentAt: number; soldOut: boolean }> = []; // sentAt: Date.now()
    const pending = new Set<Promise<void>>();
    const poll = (port: number) => {
      const sentAt = Date.now();
      const read = call(`http://127.0.0.1:${port}`, 'GET', `/api/public/show-events/${EVENT_SLUG}`).then(
        (page) => {
          // The event's own availability is the page's first `state` (AVAILABLE, LIMITED, SOLD_OUT, CLOSED).
          const state = page.status === 200 ? /"state":"([A-Z_]+)"/.exec(page.text) : undefined;
          if (state) polls.push({ port, sentAt, soldOut: state[1] === 'SOLD_OUT' });
        },
        () => undefined,
      );
      pending.add(read);
      void read.finally(() => pending.delete(read));
    };
    const pollTimer = setInterval(() => apis.forEach((api) => poll(api.port)), 50);
    // When a seat was last taken as the guests saw it: a hold's 201 arriving (its transaction committed before).
    let lastHeldAt = 0;

    const base = balancer.url;
    const guest = async (n: number): Promise<GuestOutcome> => {
      const address = { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
      const contact = { name: `Sale guest ${n}`, email: `guest-${n}@rsale.example.com`, phone: '+84 90 000 0000', locale: 'en' };
      const hold = await call(base, 'POST', '/api/public/reservations', { json: { eventSlug: EVENT_SLUG, offerCode: OFFER_CODE, guestCount: 1, contact }, headers: address });
      note('hold', hold);
      if (hold.status === 201) {
        lastHeldAt = Math.max(lastHeldAt, Date.now());
        const token = { 'x-reservation-token': hold.body.accessToken as string, ...address };
        const reference = hold.body.reference as string;
        if (n % 2 === 0) {
          const checkout = await call(base, 'POST', `/api/public/reservations/${reference}/checkout`, { json: { method: 'VNPAY', locale: 'en' }, headers: token });
          note('checkout', checkout);
          if (checkout.status !== 201) return { held: true, paid: false, cancelled: false, joined: false };
          const page = new URL(checkout.body.vnpay.paymentUrl as string);
          const pay = await call(base, 'POST', page.pathname + page.search, { form: 'outcome=pay', headers: address });
          note('pay', pay);
          return { held: true, paid: pay.status === 303, cancelled: false, joined: false };
        }
        if (n % CANCEL_EVERY === 1 && n < GUESTS * CANCEL_BEFORE) {
          const cancel = await call(base, 'POST', `/api/public/reservations/${reference}/cancel`, { headers: token });
          note('cancel', cancel);
          return { held: true, paid: false, cancelled: cancel.status === 200, joined: false };
        }
        return { held: true, paid: false, cancelled: false, joined: false };
      }
      const code = hold.body?.code as string | undefined;
      if (hold.status === 409 && (code === 'sold_out' || code === 'not_enough_seats')) {
        const join = await call(base, 'POST', '/api/waitlist', { json: { eventSlug: EVENT_SLUG, guestCount: 1, name: contact.name, email: contact.email, locale: 'en' }, headers: address });
        note('waitlist', join);
        return { held: false, paid: false, cancelled: false, joined: join.status === 201, refusal: code };
      }
      if (hold.status === 429) return { held: false, paid: false, cancelled: false, joined: false, refusal: '429' };
      odd.push(`hold ${hold.status} ${code ?? hold.text.slice(0, 120)}`);
      return { held: false, paid: false, cancelled: false, joined: false, refusal: `${hold.status} ${code}` };
    };

    const startedAt = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: GUESTS }, (_, n) =>
        new Promise<void>((resolve) => setTimeout(resolve, (n * SECONDS * 1000) / GUESTS)).then(() => guest(n)),
      ),
    );
    const elapsedMs = performance.now() - startedAt;
    // The worker's jobs (a cancelled seat offered to the waiting list) settle, and the pollers see what the catalog
    // settles on: two seconds after the last guest's answer.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    clearInterval(pollTimer);
    await Promise.all([...pending]);

    // The house booking's seats are not the sale's.
    const taken = await seatsTaken(knex, eventId);
    const takenInDatabase = taken.seats - (CAPACITY - SEATS);
    // The last seat: the last hold answered 201, or a seat given back and offered to the waiting list after it.
    const lastSeatAt = Math.max(lastHeldAt, await lastOfferAt(knex, eventId));
    const [{ confirmed }] = await knex('reservations').where({ show_event_id: eventId, status: 'CONFIRMED' }).whereNot('customer_id', knex('customers').select('id').where('email_normalized', 'house@rsale.example.com')).count({ confirmed: '*' });
    const [{ waiting }] = await knex('waitlist_entries').where('show_event_id', eventId).count({ waiting: '*' });
    const paid = outcomes.filter((o) => o.paid).length;
    const joined = outcomes.filter((o) => o.joined).length;
    const refusals = outcomes.filter((o) => o.refusal).map((o) => o.refusal!);
    const badRefusals = refusals.filter((r) => r !== 'sold_out' && r !== 'not_enough_seats' && r !== '429');
    const fiveXx = [...statuses].filter(([key]) => Number(key.split(' ')[1]) >= 500).reduce((sum, [, n]) => sum + n, 0);
    // Per process: the first read sent after the last seat was taken that shows none left.
    const soldOutLag = apis.map((api) => {
      if (takenInDatabase !== SEATS) return Infinity;
      const after = polls.filter((p) => p.port === api.port && p.sentAt >= lastSeatAt);
      const first = after.find((p) => p.soldOut);
      return first ? first.sentAt - lastSeatAt : Infinity;
    });
    const perOperation = Object.fromEntries([...latencies].map(([op, values]) => [op, { count: values.length, p50Ms: Math.round(percentile(values, 50)), p99Ms: Math.round(percentile(values, 99)) }]));
    const result = {
      guests: GUESTS,
      seconds: SECONDS,
      seats: SEATS,
      elapsedMs: Math.round(elapsedMs),
      taken: takenInDatabase,
      offeredToWaitlist: taken.offered,
      oversold: Math.max(0, takenInDatabase - SEATS),
      held: outcomes.filter((o) => o.held).length,
      paid,
      confirmed: Number(confirmed),
      cancelled: outcomes.filter((o) => o.cancelled).length,
      refused: refusals.length,
      joinedWaitlist: joined,
      waitlistEntries: Number(waiting),
      fiveXx,
      badRefusals: badRefusals.length,
      soldOutLagMs: soldOutLag.map((ms) => Math.round(ms)),
      perOperation,
      statuses: Object.fromEntries(statuses),
      forwarded: Object.fromEntries(balancer.forwarded),
      pass: false,
    };
    result.pass =
      takenInDatabase === SEATS && fiveXx === 0 && badRefusals.length === 0 && odd.length === 0 && Number(confirmed) === paid && Number(waiting) === joined && soldOutLag.every((ms) => ms <= SOLD_OUT_WITHIN_MS);
    for (const line of odd.slice(0, 10)) console.log(`bench: R3 odd answer: ${line}`);
    console.log(
      `R3  a sale: ${GUESTS} guests in ${SECONDS} s for ${SEATS} seats on 2 API processes + 1 worker: taken ${takenInDatabase} (target exactly ${SEATS}; ${taken.offered} of them offered to the waiting list), oversold ${result.oversold}, ` +
        `5xx ${fiveXx}, refusals ${refusals.length} (other than sold_out/429: ${badRefusals.length}); held ${result.held}, paid ${paid} (confirmed ${result.confirmed}), cancelled ${result.cancelled}, ` +
        `waiting list ${result.waitlistEntries} (joined ${joined}); catalog sold out on each process ${result.soldOutLagMs.map((ms) => (Number.isFinite(ms) ? `${ms} ms` : 'never')).join(' / ')} after the last seat (target ≤ ${SOLD_OUT_WITHIN_MS} ms); ` +
        `p50/p99 ${Object.entries(perOperation).map(([op, v]) => `${op} ${v.p50Ms}/${v.p99Ms} ms (${v.count})`).join(', ')}; answers ${[...statuses].map(([key, n]) => `${key} ×${n}`).join(', ')}  ${result.pass ? 'PASS' : 'MISS'}`,
    );
    return result;
  } finally {
    await stopCluster({ balancer, servers, knex, database, dir });
  }
}

runWhenMain(import.meta.url, saleRow, (result) => !result.pass && process.env.BENCH_STRICT === '1');
