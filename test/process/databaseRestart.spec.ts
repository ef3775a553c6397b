import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { seed } from '../../seed/index.ts';
import { eventually } from '../helpers/eventually.ts';
import { findPostgresBin, startPrivatePostgres, type PrivatePostgres } from '../helpers/privatePostgres.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';

const SUPERUSER = 'restart-superuser-token-0123456789abc';
const PASSWORDS = { admin: 'Admin-pass-0123456789', marketing: 'Marketing-pass-0123456789', staff: 'Staff-pass-0123456789' };

interface Outcome {
  step: 'hold' | 'checkout' | 'pay' | 'return';
  status: number;
  reference?: string;
  /** `return`: the reservation's status the guest was shown on coming back from the pay page. */
  shown?: string;
  at: number;
}

/**
 * Issue 25 §4: PostgreSQL itself goes away under a booking load (a private server this spec starts with initdb +
 * pg_ctl on its own port; never the shared one). Meanwhile the server answers readiness 503; once PostgreSQL is back
 * it answers 200 again by itself (no restart of the app), bookings go through again, and nothing is half-written:
 * every reservation has its customer and its expiry job (written in the hold's transaction), every confirmed one
 * its succeeded payment and confirmation e-mail, every succeeded payment a confirmed reservation, and every booking
 * step a guest was told succeeded is there.
 */
describe('recovery: PostgreSQL restarted under a booking load @db', function () {
  this.timeout(600_000);
  const bin = findPostgresBin();
  let pg: PrivatePostgres | undefined;
  let app: ServerProcess | undefined;
  let knex: Knex | undefined;
  let dataDir: string;

  before(async function () {
    // Once per CI run (the PostgreSQL leg), and only where PostgreSQL's own binaries are installed.
    if (!process.env.DATABASE_URL || !bin) this.skip();
    pg = await startPrivatePostgres(bin);
    const admin = knexFactory({ client: 'pg', connection: pg.url(), pool: { min: 0, max: 1 } });
    await admin.raw('create database venue');
    await admin.destroy();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-restart-'));
  });
  after(async () => {
    await app?.stop();
    await knex?.destroy();
    pg?.destroy();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      console.log(app?.output().split('\n').slice(-80).join('\n'));
      console.log(pg?.log().split('\n').slice(-30).join('\n'));
    }
  });

  it('answers readiness 503 while it is down, reconnects by itself, and leaves every booking whole or absent', async () => {
    app = await startServerProcess({
      name: 'app',
      env: { DATABASE_URL: pg!.url('venue'), DATA_DIR: dataDir, SUPERUSER_API_TOKENS: SUPERUSER, JOB_POLL_INTERVAL_SECONDS: '1' },
    });
    await seed({ baseUrl: app.baseUrl, superuserToken: SUPERUSER, passwords: PASSWORDS, catalog: 'always' });
    knex = knexFactory({ client: 'pg', connection: pg!.url('venue'), pool: { min: 0, max: 2 } });
    const events = (
      (await knex.raw(
        `select e.slug, o.code from show_events e join offers o on o.show_id = e.show_id
          where e.sales_open and e.status = 'SCHEDULED' and e.starts_at > now() + interval '3 days' and o.status = 'ACTIVE' and o.min_guests <= 2
          order by e.starts_at, o.code limit 8`,
      )) as { rows: Array<{ slug: string; code: string }> }
    ).rows;
    expect(events.length).to.be.greaterThan(0);

    // The load: guests booking and paying (hold → checkout → the sandbox's Pay), four at a time, until told to stop.
    const outcomes: Outcome[] = [];
    let running = true;
    const request = async (method: string, pathname: string, body: string | object, headers: Record<string, string> = {}) => {
      try {
        const res = await fetch(app!.baseUrl + pathname, {
          method,
          redirect: 'manual',
          headers: method === 'GET' ? headers : { 'content-type': typeof body === 'string' ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
          body: method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        });
        const text = await res.text();
        return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text, location: res.headers.get('location') ?? undefined };
      } catch {
        return { status: 0, body: undefined, location: undefined };
      }
    };
    let guest = 0;
    const loop = async () => {
      while (running) {
        const n = ++guest;
        const pick = events[n % events.length];
        const contact = { name: `Guest ${n}`, email: `guest${n}@example.com`, phone: '+84 90 123 4567', locale: 'en' };
        const hold = await request('POST', '/api/public/reservations', { eventSlug: pick.slug, offerCode: pick.code, guestCount: 2, contact });
        outcomes.push({ step: 'hold', status: hold.status, reference: hold.body?.reference, at: Date.now() });
        if (hold.status !== 201) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          continue;
        }
        const token = { 'x-reservation-token': hold.body.accessToken };
        const checkout = await request('POST', `/api/public/reservations/${hold.body.reference}/checkout`, { method: 'VNPAY', locale: 'en' }, token);
        outcomes.push({ step: 'checkout', status: checkout.status, reference: hold.body.reference, at: Date.now() });
        if (checkout.status !== 201) continue;
        const pay = new URL(checkout.body.vnpay.paymentUrl);
        const paid = await request('POST', pay.pathname + pay.search, 'outcome=pay');
        outcomes.push({ step: 'pay', status: paid.status, reference: hold.body.reference, at: Date.now() });
        // The pay page sends the guest back whatever became of the IPN (as VNPay does); the return page says.
        if (paid.status !== 303) continue;
        const back = new URL(String((paid as { location?: string }).location));
        const landed = await request('GET', back.pathname + back.search, '');
        if (landed.status === 200) outcomes.push({ step: 'return', status: 200, reference: hold.body.reference, shown: landed.body.reservationStatus, at: Date.now() });
      }
    };
    const load = Promise.all([loop(), loop(), loop(), loop()]);
    await eventually(() => outcomes.filter((o) => o.step === 'return' && o.shown === 'CONFIRMED').length, { until: (n) => n >= 3, timeoutMs: 120_000, what: 'a few bookings paid before the restart' });

    // PostgreSQL stops (fast: sessions ended, as in a restart) under the load; readiness says so.
    const readiness: Array<{ status: number; at: number }> = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        // `at`: when the probe was sent (an answer to one sent before the stop may still be 200).
        const sentAt = Date.now();
        readiness.push({ status: await app!.probe('/api/system/health/ready', 3000), at: sentAt });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const stoppedAt = Date.now();
    pg!.stop();
    await eventually(() => readiness.some((r) => r.at > stoppedAt && r.status === 503), { timeoutMs: 30_000, what: 'readiness 503 while PostgreSQL is down' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    pg!.start();
    const startedAt = Date.now();
    // Back by itself: readiness 200, and bookings succeed again.
    await eventually(() => readiness.some((r) => r.at > startedAt && r.status === 200), { timeoutMs: 60_000, what: 'readiness 200 once PostgreSQL is back' });
    const readyAgainMs = readiness.find((r) => r.at > startedAt && r.status === 200)!.at - startedAt;
    await eventually(() => outcomes.filter((o) => o.at > startedAt && o.step === 'return' && o.shown === 'CONFIRMED').length, { until: (n) => n >= 3, timeoutMs: 60_000, what: 'bookings paid after the restart' });
    running = false;
    probing = false;
    await Promise.all([load, probe]);
    console.log(
      `      PostgreSQL down ${((startedAt - stoppedAt) / 1000).toFixed(1)} s; readiness 200 again ${(readyAgainMs / 1000).toFixed(1)} s after it was back; ` +
        `${outcomes.length} booking requests: ${JSON.stringify(countBy(outcomes.map((o) => `${o.step} ${o.status}`)))}`,
    );
    // Whatever failed while the database was away failed cleanly: problem answers or a refused connection, never a hang.
    expect(readiness.filter((r) => r.at > stoppedAt && r.at < startedAt).every((r) => r.status === 503 || r.status === 0)).to.equal(true);
    expect(app.child.exitCode, 'the server process lives on').to.equal(null);

    // Nothing half-written.
    const q = async (sql: string) => ((await knex!.raw(sql)) as { rows: any[] }).rows;
    expect(await q(`select r.reference from reservations r left join customers c on c.id = r.customer_id where c.id is null`)).to.deep.equal([]);
    expect(
      await q(`select r.reference from reservations r where not exists (
                 select 1 from pgboss.job j where j.name = 'booking.expire-holds' and j.data->>'reservationId' = r.id::text
                 union all select 1 from pgboss.archive a where a.name = 'booking.expire-holds' and a.data->>'reservationId' = r.id::text)`),
      'every hold has its expiry job',
    ).to.deep.equal([]);
    expect(
      await q(`select r.reference from reservations r where r.status = 'CONFIRMED' and not exists (
                 select 1 from payments p where p.reservation_id = r.id and p.status = 'SUCCEEDED' and p.amount_vnd = r.total_vnd)`),
      'every confirmed reservation has its payment',
    ).to.deep.equal([]);
    expect(
      await q(`select p.txn_ref from payments p join reservations r on r.id = p.reservation_id where p.status = 'SUCCEEDED' and r.status <> 'CONFIRMED'`),
      'every succeeded payment confirmed its reservation',
    ).to.deep.equal([]);
    expect(
      await q(`select r.reference from reservations r where r.status = 'CONFIRMED' and not exists (
                 select 1 from email_messages m where m.reservation_id = r.id and m.template = 'reservation-confirmation')`),
      'every confirmation has its e-mail',
    ).to.deep.equal([]);
    expect(
      await q(`select p.txn_ref from payments p where p.gateway = 'VNPAY' and p.status = 'SUCCEEDED' and not exists (
                 select 1 from payment_callbacks c where c.txn_ref = p.txn_ref and c.kind = 'IPN' and c.outcome = '00')`),
      'every succeeded payment has its IPN',
    ).to.deep.equal([]);
    expect(await q(`select c.id from customers c where not exists (select 1 from reservations r where r.customer_id = c.id)`), 'no customer without the hold that made it').to.deep.equal([]);
    // Every step a guest was told succeeded is there.
    const rows = await q(`select r.reference, r.status, (select count(*)::int from payments p where p.reservation_id = r.id) as payments from reservations r`);
    const byReference = new Map(rows.map((row) => [row.reference, row]));
    for (const o of outcomes) {
      if (o.step === 'hold' && o.status === 201) expect(byReference.has(o.reference!), `hold ${o.reference}`).to.equal(true);
      if (o.step === 'checkout' && o.status === 201) expect(byReference.get(o.reference!)?.payments, `checkout ${o.reference}`).to.be.greaterThan(0);
      // What the guest was shown on coming back is what is stored (an IPN cut off by the restart: HELD, payment pending).
      if (o.step === 'return') expect(byReference.get(o.reference!)?.status, `return ${o.reference}`).to.equal(o.shown);
    }
    // And never a 500: an answer while the database is away is a problem answer the guest can retry.
    expect(outcomes.filter((o) => o.status >= 500 && o.status !== 503)).to.deep.equal([]);
    expect(await app.stop()).to.equal(0);
  });
});

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const value of values) out[value] = (out[value] ?? 0) + 1;
  return out;
}
