import { expect } from 'chai';
import { eventually } from '../../helpers/eventually.ts';
import type { Knex } from 'knex';
import { aggregateGate, readConcurrently, suppressParts } from '../../../server/modules/analytics/queries.ts';
import { showWithEvent } from './factories.ts';
import { local } from '../catalog/helpers.ts';
import { buildCustomer } from '../customers/factories.ts';
import { buildPayment } from '../payments/factories.ts';
import { buildReservation } from '../reservations/factories.ts';
import { apiKeyWith, catalogSpec } from '../shows/catalog.ts';

/**
 * The aggregate dashboards (issue 11): GET /api/analytics/summary, /api/analytics/top-shows and
 * /api/analytics/customer-intelligence, Staff+, over local dates in VENUE_TIMEZONE (Asia/Ho_Chi_Minh).
 */
describe('analytics: aggregate dashboards @db', () => {
  const spec = catalogSpec();
  const staff = () => spec.as(spec.callers.staff);
  const knex = () => spec.server.db.knex;

  describe('access and ranges', () => {
    it('answers 401 to anonymous callers and 200 to staff, admin and an API key with analytics:read', async () => {
      for (const path of ['/api/analytics/summary', '/api/analytics/top-shows', '/api/analytics/customer-intelligence']) {
        expect((await spec.as({}).get(path)).status, path).to.equal(401);
        expect((await staff().get(path)).status, path).to.equal(200);
        expect((await spec.as(spec.callers.admin).get(path)).status, path).to.equal(200);
        expect((await spec.as(await apiKeyWith('analytics:read')).get(path)).status, path).to.equal(200);
        const refused = await spec.as(await apiKeyWith('customers:read')).get(path);
        expect(refused.status, path).to.equal(403);
        expect(refused.body.code).to.equal('missing_permission');
      }
    });

    it('defaults to the 30 local days ending today, and refuses bad ranges with the failing field', async () => {
      const res = await staff().get('/api/analytics/summary');
      expect(res.body.range.timezone).to.equal('Asia/Ho_Chi_Minh');
      expect(res.body.daily).to.have.length(30);
      expect(res.body.daily[29].date).to.equal(res.body.range.to);
      const reversed = await staff().get('/api/analytics/summary?from=2026-10-31&to=2026-10-01');
      expect(reversed.status).to.equal(422);
      expect(reversed.body.code).to.equal('invalid_range');
      expect(reversed.body.errors[0].path).to.equal('query/from');
      const tooLong = await staff().get('/api/analytics/customer-intelligence?from=2020-01-01&to=2026-10-01');
      expect(tooLong.status).to.equal(422);
      const notADate = await staff().get('/api/analytics/top-shows?from=2026-13-45');
      expect(notADate.status).to.equal(400);
      expect(notADate.body.errors[0].path).to.equal('query/from');
      const badSort = await staff().get('/api/analytics/top-shows?sort=names');
      expect(badSort.status).to.equal(400);
      expect((await staff().get('/api/analytics/top-shows?limit=51')).status).to.equal(400);
    });
  });

  describe('summary and top shows', () => {
    before(async () => {
      const k = knex();
      const a = await showWithEvent({ code: 'AAA', title: { en: 'Alpha Show', vi: 'Chương trình Alpha' } });
      const b = await showWithEvent({ code: 'BBB' });
      const c = await showWithEvent({ code: 'CCC' });
      const customer = await buildCustomer({ email: 'summary@example.com' });
      const at = (show: typeof a) => ({ eventId: show.event.id, offerId: show.offer.id, customerId: customer });
      const r1 = await buildReservation({ ...at(a), status: 'CONFIRMED', guests: 2, createdAt: local('2026-10-05', '12:00') });
      await buildPayment(r1.id, { amount: 2_000_000, gateway: 'VNPAY' });
      // 23:30 local is still 5 October (16:30 UTC); 00:30 local on the 6th is 17:30 UTC on the 5th.
      const r2 = await buildReservation({ ...at(a), status: 'CHECKED_IN', guests: 4, createdAt: local('2026-10-05', '23:30') });
      await buildPayment(r2.id, { amount: 4_000_000, gateway: 'CASH', refunds: [{ amount: 1_000_000 }, { amount: 500_000, status: 'FAILED' }] });
      const r3 = await buildReservation({ ...at(b), status: 'NO_SHOW', guests: 3, createdAt: local('2026-10-06', '00:30') });
      await buildPayment(r3.id, { amount: 3_000_000, gateway: 'BANK_TRANSFER', refunds: [{ amount: 3_000_000 }] });
      const r4 = await buildReservation({ ...at(b), status: 'CANCELLED', confirmed: true, guests: 2, createdAt: local('2026-10-07', '10:00') });
      await buildPayment(r4.id, { amount: 2_000_000, gateway: 'VNPAY', refunds: [{ amount: 2_000_000 }] });
      const r5 = await buildReservation({ ...at(a), status: 'HELD', createdAt: local('2026-10-08', '10:00') });
      await buildPayment(r5.id, { amount: 2_000_000, status: 'PENDING' });
      await buildPayment(r5.id, { amount: 2_000_000, status: 'FAILED' });
      await buildReservation({ ...at(b), status: 'EXPIRED', createdAt: local('2026-10-08', '11:00') });
      await buildReservation({ ...at(c), status: 'CONFIRMED', guests: 10, createdAt: local('2026-10-09', '11:00') });
      // Outside the range by a minute each way.
      const before = await buildReservation({ ...at(a), status: 'CONFIRMED', guests: 1, createdAt: local('2026-09-30', '23:59') });
      await buildPayment(before.id, { amount: 1_000_000 });
      await buildReservation({ ...at(a), status: 'CONFIRMED', guests: 1, createdAt: local('2026-11-01', '00:00') });
      for (const createdAt of [local('2026-10-02', '09:00'), local('2026-10-03', '09:00'), local('2026-10-31', '23:59'), local('2026-11-01', '00:01')]) {
        await k('customer_leads').insert({ customer_id: customer, name: 'Lead', email: 'lead@example.com', reference_hash: Buffer.from(createdAt.toISOString()), expires_at: createdAt, created_at: createdAt });
      }
    });

    it('counts bookings, guests, revenue (paid minus refunded), the funnel and the gateway split of the range', async () => {
      const res = await staff().get('/api/analytics/summary?from=2026-10-01&to=2026-10-31');
      expect(res.status).to.equal(200);
      const body = res.body;
      expect(body.range).to.deep.equal({ from: '2026-10-01', to: '2026-10-31', timezone: 'Asia/Ho_Chi_Minh' });
      expect(body.reservations).to.equal(7);
      expect(body.byStatus).to.deep.equal({ HELD: 1, CONFIRMED: 2, CHECKED_IN: 1, CANCELLED: 1, EXPIRED: 1, NO_SHOW: 1 });
      expect(body.bookings).to.equal(4);
      expect(body.guests).to.equal(19);
      expect(body.averagePartySize).to.equal(4.75);
      expect(body.revenue).to.deep.equal({ paidVnd: 11_000_000, refundedVnd: 6_000_000, netVnd: 5_000_000 });
      expect(body.funnel).to.deep.equal({ leads: 3, holds: 7, confirmed: 5, checkedIn: 1 });
      expect(body.cancellations).to.equal(1);
      expect(body.noShows).to.equal(1);
      expect(body.gateways).to.deep.equal([
        { gateway: 'BANK_TRANSFER', payments: 1, paidVnd: 3_000_000, refundedVnd: 3_000_000, netVnd: 0 },
        { gateway: 'CASH', payments: 1, paidVnd: 4_000_000, refundedVnd: 1_000_000, netVnd: 3_000_000 },
        { gateway: 'VNPAY', payments: 2, paidVnd: 4_000_000, refundedVnd: 2_000_000, netVnd: 2_000_000 },
      ]);
      expect(body.daily).to.have.length(31);
      const day = (date: string) => body.daily.find((d: { date: string }) => d.date === date);
      expect(day('2026-10-05')).to.deep.equal({ date: '2026-10-05', holds: 2, bookings: 2, guests: 6, netRevenueVnd: 5_000_000 });
      expect(day('2026-10-06')).to.deep.equal({ date: '2026-10-06', holds: 1, bookings: 1, guests: 3, netRevenueVnd: 0 });
      expect(day('2026-10-07')).to.deep.equal({ date: '2026-10-07', holds: 1, bookings: 0, guests: 0, netRevenueVnd: 0 });
      expect(day('2026-10-08')).to.deep.equal({ date: '2026-10-08', holds: 2, bookings: 0, guests: 0, netRevenueVnd: 0 });
      expect(day('2026-10-01')).to.deep.equal({ date: '2026-10-01', holds: 0, bookings: 0, guests: 0, netRevenueVnd: 0 });
    });

    it('reads a single local day in the venue time zone', async () => {
      const fifth = await staff().get('/api/analytics/summary?from=2026-10-05&to=2026-10-05');
      expect(fifth.body.reservations).to.equal(2);
      expect(fifth.body.revenue.netVnd).to.equal(5_000_000);
      expect(fifth.body.daily).to.have.length(1);
      const sixth = await staff().get('/api/analytics/summary?from=2026-10-06&to=2026-10-06');
      expect(sixth.body.byStatus.NO_SHOW).to.equal(1);
      expect(sixth.body.reservations).to.equal(1);
    });

    it('ranks shows by revenue, guests or bookings, ties by code, with a limit', async () => {
      const range = 'from=2026-10-01&to=2026-10-31';
      const byRevenue = await staff().get(`/api/analytics/top-shows?${range}`);
      expect(byRevenue.status).to.equal(200);
      expect(byRevenue.body.sort).to.equal('revenue');
      expect(byRevenue.body.items.map((s: { code: string; revenueVnd: number }) => [s.code, s.revenueVnd])).to.deep.equal([
        ['AAA', 5_000_000],
        ['BBB', 0],
        ['CCC', 0],
      ]);
      expect(byRevenue.body.items[0]).to.include({ title: 'Alpha Show', slug: 'show-aaa', bookings: 2, guests: 6 });
      const byGuests = await staff().get(`/api/analytics/top-shows?${range}&sort=guests`);
      expect(byGuests.body.items.map((s: { code: string; guests: number }) => [s.code, s.guests])).to.deep.equal([
        ['CCC', 10],
        ['AAA', 6],
        ['BBB', 3],
      ]);
      const byBookings = await staff().get(`/api/analytics/top-shows?${range}&sort=bookings&limit=2`);
      expect(byBookings.body.items.map((s: { code: string; bookings: number }) => [s.code, s.bookings])).to.deep.equal([
        ['AAA', 2],
        ['BBB', 1],
      ]);
      const empty = await staff().get('/api/analytics/top-shows?from=2025-01-01&to=2025-01-31');
      expect(empty.body.items).to.deep.equal([]);
    });
  });

  describe('customer intelligence', () => {
    let emails: string[] = [];
    before(async () => {
      const k = knex();
      const x = await showWithEvent({ code: 'XXX' });
      const y = await showWithEvent({ code: 'YYY' });
      const july = local('2026-07-15', '12:00');
      const aug = (day: number) => local(`2026-08-${String(day).padStart(2, '0')}`, '12:00');
      // Twelve people active in August: P1–P6 booked before (returning), P7–P12 did not (new).
      // P1 has two CRM rows with one address: a soft-deleted one (different case) and the live one.
      const p1Deleted = await buildCustomer({ email: ' Person1@Example.com', deleted: true });
      const ids: string[] = [await buildCustomer({ email: 'person1@example.com' })];
      for (let n = 2; n <= 12; n++) ids.push(await buildCustomer({ email: `person${n}@example.com` }));
      emails = ids.map((_, i) => `person${i + 1}@example.com`);
      const book = async (customerId: string, createdAt: Date, show = x, extra: Partial<Parameters<typeof buildReservation>[0]> = {}) => {
        const r = await buildReservation({ eventId: show.event.id, offerId: show.offer.id, customerId, createdAt, ...extra });
        if (createdAt >= aug(1)) await buildPayment(r.id, { amount: 1_000_000 });
        return r;
      };
      await book(p1Deleted, july);
      for (const n of [2, 3, 4, 5, 6]) await book(ids[n - 1], july);
      // August: P1 ×2 (one on each CRM row), P2 ×2, P7 ×2, P3 ×3, P8 ×3; everyone else once.
      await book(p1Deleted, aug(3));
      await book(ids[0], aug(4));
      for (const [n, times] of [[2, 2], [7, 2], [3, 3], [8, 3]] as const) for (let i = 0; i < times; i++) await book(ids[n - 1], aug(5 + i));
      await book(ids[3], aug(10), y); // P4: the only one on show Y
      await book(ids[4], aug(10), x, { bookingPath: 'SHOW_ONLY' }); // P5: the only SHOW_ONLY booking
      for (const n of [6, 9, 10, 11, 12]) await book(ids[n - 1], aug(11));
      // Not bookings: a hold never confirmed, an expired hold, a cancelled unconfirmed hold.
      const p13 = await buildCustomer({ email: 'person13@example.com' });
      await buildReservation({ eventId: x.event.id, offerId: x.offer.id, customerId: p13, createdAt: aug(12), status: 'HELD' });
      await buildReservation({ eventId: x.event.id, offerId: x.offer.id, customerId: p13, createdAt: aug(12), status: 'EXPIRED' });
      await buildReservation({ eventId: x.event.id, offerId: x.offer.id, customerId: p13, createdAt: aug(12), status: 'CANCELLED' });
    });

    it('counts active, new and returning people once per normalized e-mail, with frequency and revenue breakdowns', async () => {
      const res = await staff().get('/api/analytics/customer-intelligence?from=2026-08-01&to=2026-08-31');
      expect(res.status, JSON.stringify(res.body.debug?.message)).to.equal(200);
      const body = res.body;
      expect(body.minimumGroupSize).to.equal(5);
      expect(body.customers).to.deep.equal({
        active: { value: 12, suppressed: false },
        new: { value: 6, suppressed: false },
        returning: { value: 6, suppressed: false },
      });
      expect(body.returningRate).to.equal(0.5);
      expect(body.frequency.oneTime).to.deep.equal({ value: 7, suppressed: false });
      expect(body.frequency.repeat).to.deep.equal({ value: 5, suppressed: false });
      expect(body.frequency.histogram).to.deep.equal([
        { bookings: '1', customers: { value: 7, suppressed: false } },
        { bookings: '2', customers: { value: null, suppressed: true } },
        { bookings: '3', customers: { value: null, suppressed: true } },
        { bookings: '4', customers: { value: 0, suppressed: false } },
        { bookings: '5+', customers: { value: 0, suppressed: false } },
      ]);
      expect(body.revenueByShow.map((r: Record<string, unknown>) => ({ ...r, showId: undefined, title: undefined }))).to.deep.equal([
        { showId: undefined, title: undefined, code: 'XXX', customers: 11, bookings: 18, revenueVnd: 18_000_000, suppressed: false },
        { showId: undefined, title: undefined, code: 'YYY', customers: null, bookings: null, revenueVnd: null, suppressed: true },
      ]);
      expect(body.revenueByBookingType).to.deep.equal([
        { bookingPath: 'DINNER_SHOW', customers: 11, bookings: 18, revenueVnd: 18_000_000, suppressed: false },
        { bookingPath: 'SHOW_ONLY', customers: null, bookings: null, revenueVnd: null, suppressed: true },
      ]);
      for (const email of emails) expect(res.text.toLowerCase()).not.to.include(email);
    });

    it('suppresses everything when fewer than 5 people are active in the range', async () => {
      // 10 August: P4 (show Y) and P5 (SHOW_ONLY) only.
      const res = await staff().get('/api/analytics/customer-intelligence?from=2026-08-10&to=2026-08-10');
      const body = res.body;
      expect(body.customers.active).to.deep.equal({ value: null, suppressed: true });
      // Both are returning: "no one new" describes no one; the returning count is hidden.
      expect(body.customers.new).to.deep.equal({ value: 0, suppressed: false });
      expect(body.customers.returning).to.deep.equal({ value: null, suppressed: true });
      expect(body.returningRate).to.equal(null);
      expect(body.frequency.oneTime.suppressed).to.equal(true);
      expect(body.revenueByShow.every((r: { suppressed: boolean; revenueVnd: unknown }) => r.suppressed && r.revenueVnd === null)).to.equal(true);
      expect(body.revenueByBookingType.every((r: { suppressed: boolean }) => r.suppressed)).to.equal(true);
      const nobody = await staff().get('/api/analytics/customer-intelligence?from=2025-01-01&to=2025-01-31');
      expect(nobody.body.customers.active).to.deep.equal({ value: 0, suppressed: false });
      expect(nobody.body.returningRate).to.equal(null);
    });

    it('suppresses a second part when one suppressed part could be worked out from a published total', () => {
      const total = { value: 20, suppressed: false };
      expect(suppressParts(total, [17, 3])).to.deep.equal([{ value: null, suppressed: true }, { value: null, suppressed: true }]);
      expect(suppressParts(total, [10, 6, 4, 0])).to.deep.equal([
        { value: 10, suppressed: false },
        { value: null, suppressed: true },
        { value: null, suppressed: true },
        { value: 0, suppressed: false },
      ]);
      expect(suppressParts(total, [12, 8])).to.deep.equal([{ value: 12, suppressed: false }, { value: 8, suppressed: false }]);
      expect(suppressParts({ value: null, suppressed: true }, [3, 0])).to.deep.equal([{ value: null, suppressed: true }, { value: 0, suppressed: false }]);
    });
  });

  describe('reads in one snapshot', () => {
    const one = async <T>(trx: Knex.Transaction, sql: string) => ((await trx.raw(sql)) as { rows: Array<{ v: T }> }).rows[0].v;
    const customers = (trx: Knex.Transaction) => one<string>(trx, 'select count(*)::int as v from customers').then(Number);
    const backend = (trx: Knex.Transaction) => one<number>(trx, 'select pg_backend_pid() as v');

    it('on PostgreSQL runs the reads at once on their own connections, all in the first one\'s snapshot', async function () {
      const db = spec.server.db;
      if (db.kind !== 'postgres') this.skip();
      const [before, [first, second]] = await readConcurrently<number, [{ pid: number; n: number }, { pid: number; n: number }]>(db, customers, () => [
        async (trx) => ({ pid: await backend(trx), n: await customers(trx) }),
        async (trx) => {
          // Committed by another connection after the snapshot was taken: invisible to every read.
          await buildCustomer({ email: `snapshot-${Date.now()}@example.com` });
          return { pid: await backend(trx), n: await customers(trx) };
        },
      ]);
      expect(first.n).to.equal(before);
      expect(second.n).to.equal(before);
      expect(second.pid).not.to.equal(first.pid);
      expect(Number((await db.knex('customers').count({ n: '*' }))[0].n)).to.equal(before + 1);
    });

    it('on PostgreSQL holds at most two such reads at a time: a third waits for one to end', async function () {
      const db = spec.server.db;
      if (db.kind !== 'postgres') this.skip();
      const events: string[] = [];
      const releases: Array<() => void> = [];
      const held = [0, 1, 2].map(() => new Promise<void>((resolve) => releases.push(resolve)));
      const run = (i: number) =>
        readConcurrently<number, [number]>(db, async () => (events.push(`start${i}`), await held[i], i), () => [async () => i]).then(() => events.push(`end${i}`));
      const until = async (done: () => boolean) => {
        await eventually(done, { until: (ok) => ok, timeoutMs: 5000, intervalMs: 10, orLast: true });
        expect(done(), events.join(' ')).to.equal(true);
      };
      const runs = [run(0), run(1)];
      try {
        await until(() => events.length === 2);
        runs.push(run(2));
        // The third waits at the gate (it would have started by now without one) until the first ends.
        await until(() => aggregateGate(db.knex).waiting === 1 || events.includes('start2'));
        // The first two start in either order (whichever gets its connection first).
        expect([...events].sort()).to.deep.equal(['start0', 'start1']);
        expect(aggregateGate(db.knex)).to.deep.equal({ active: 2, waiting: 1 });
        releases[0]();
        await until(() => events.includes('start2'));
        expect(events.indexOf('start2')).to.be.greaterThan(events.indexOf('end0'));
      } finally {
        for (const release of releases) release();
        await Promise.all(runs);
      }
    });

    it('on the embedded database runs them one after another in one transaction', async function () {
      const db = spec.server.db;
      if (db.kind === 'postgres') this.skip();
      const order: string[] = [];
      const [prepared, results] = await readConcurrently<string, [number, number]>(db, async () => (order.push('prepare'), 'p'), () => [
        async (trx) => (order.push('a'), customers(trx)),
        async (trx) => (order.push('b'), customers(trx)),
      ]);
      expect(prepared).to.equal('p');
      expect(results[0]).to.equal(results[1]);
      expect(order).to.deep.equal(['prepare', 'a', 'b']);
    });
  });
});
