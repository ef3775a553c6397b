import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../server/platform/config.ts';
import { seed } from '../../seed/index.ts';
import { eventually } from '../helpers/eventually.ts';
import { startFakeManyChat, type FakePlatform } from '../helpers/fakeChatPlatforms.ts';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratchDatabase.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';

const SUPERUSER = 'roles-superuser-token-0123456789abcdef';
const WEBHOOK = 'roles-chat-webhook-token-0123456789';
const PASSWORDS = { admin: 'Admin-pass-0123456789', marketing: 'Marketing-pass-0123456789', staff: 'Staff-pass-0123456789' };

describe('PROCESS_ROLE: the setting', () => {
  const pg = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/venue', ASSISTANT_API_BASE_URL: 'http://api.internal:3000' };

  it('defaults to all (npm start: HTTP and the job workers)', () => {
    expect(loadConfig({})).to.include({ processRole: 'all', jobWorkers: true });
    expect(loadConfig({ ...pg, PROCESS_ROLE: 'api' })).to.include({ processRole: 'api', jobWorkers: false });
    expect(loadConfig({ ...pg, PROCESS_ROLE: 'worker' })).to.include({ processRole: 'worker', jobWorkers: true });
  });

  it('refuses an unknown role, and api or worker on the embedded database, naming PROCESS_ROLE', () => {
    expect(() => loadConfig({ ...pg, PROCESS_ROLE: 'web' })).to.throw(ConfigError, /PROCESS_ROLE must be one of all, api, worker/);
    expect(() => loadConfig({ PROCESS_ROLE: 'api' })).to.throw(ConfigError, /PROCESS_ROLE=api needs PostgreSQL \(DATABASE_URL\)/);
    expect(() => loadConfig({ PROCESS_ROLE: 'worker', ASSISTANT_API_BASE_URL: pg.ASSISTANT_API_BASE_URL })).to.throw(ConfigError, /PROCESS_ROLE=worker needs PostgreSQL/);
    expect(loadConfig({ PROCESS_ROLE: 'all' }).processRole).to.equal('all');
  });

  it('a worker needs ASSISTANT_API_BASE_URL: chat turns call the API, which it does not serve', () => {
    expect(() => loadConfig({ DATABASE_URL: pg.DATABASE_URL, PROCESS_ROLE: 'worker' })).to.throw(ConfigError, /PROCESS_ROLE=worker needs ASSISTANT_API_BASE_URL/);
  });

  it('JOB_WORKERS (deprecated): false still means api, with a notice; a contradiction stops the start', () => {
    expect(loadConfig({ ...pg, JOB_WORKERS: 'false' })).to.deep.include({ processRole: 'api', jobWorkers: false, deprecations: ['JOB_WORKERS is deprecated: use PROCESS_ROLE=api'] });
    expect(loadConfig({ ...pg, JOB_WORKERS: 'true' })).to.deep.include({ processRole: 'all', deprecations: ['JOB_WORKERS is deprecated: use PROCESS_ROLE=all'] });
    expect(loadConfig({ ...pg, JOB_WORKERS: 'false', PROCESS_ROLE: 'api' }).deprecations[0]).to.match(/redundant/);
    expect(() => loadConfig({ ...pg, JOB_WORKERS: 'false', PROCESS_ROLE: 'worker' })).to.throw(ConfigError, /JOB_WORKERS=false contradicts PROCESS_ROLE=worker/);
    expect(() => loadConfig({ ...pg, JOB_WORKERS: 'true', PROCESS_ROLE: 'api' })).to.throw(ConfigError, /JOB_WORKERS=true contradicts PROCESS_ROLE=api/);
    // On the embedded database JOB_WORKERS=false would leave every job queued forever: refused.
    expect(() => loadConfig({ JOB_WORKERS: 'false' })).to.throw(ConfigError, /JOB_WORKERS=false \(that is PROCESS_ROLE=api\) needs PostgreSQL/);
    expect(() => loadConfig({ ...pg, JOB_WORKERS: 'maybe' })).to.throw(ConfigError, /JOB_WORKERS must be true or false/);
  });
});

/**
 * Two API processes and one worker on one PostgreSQL database (a fresh one of this spec's own), as behind a load
 * balancer without sticky sessions: a guest holds through one API process and pays (the development VNPay sandbox)
 * through the other; chat turns arrive at both; a hold expires. While only the API processes run, every job stays
 * queued (they have no workers); once the worker starts it does them all, and each exactly once: one send per chat
 * turn at the fake ManyChat, one expiry, one e-mail per message.
 */
describe('process roles: two API processes and a worker on one PostgreSQL database @db', function () {
  this.timeout(600_000);
  let db: ScratchDatabase;
  let manychat: FakePlatform;
  let dataDir: string;
  const processes: ServerProcess[] = [];

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    db = await createScratchDatabase('venue_roles');
    manychat = await startFakeManyChat();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-roles-'));
  });
  after(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await manychat?.close();
    await db?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') for (const p of processes) console.log(p.output().split('\n').slice(-60).join('\n'));
  });

  const env = (role: string, extra: Record<string, string> = {}) => ({
    PROCESS_ROLE: role,
    DATABASE_URL: db.url,
    // One data directory (the development sandbox's signing secret; the worker's e-mail outbox).
    DATA_DIR: dataDir,
    SUPERUSER_API_TOKENS: SUPERUSER,
    CHAT_WEBHOOK_TOKEN: WEBHOOK,
    CHAT_API_TOKEN: 'manychat-api-token-roles',
    CHAT_API_BASE_URL: manychat.url,
    ASSISTANT_MODEL: 'offline',
    PUBLIC_SITE_URL: 'https://venue.example',
    JOB_POLL_INTERVAL_SECONDS: '1',
    ...extra,
  });
  const start = async (name: string, role: string, extra?: Record<string, string>) => {
    const p = await startServerProcess({ name, env: env(role, extra) });
    processes.push(p);
    return p;
  };
  const call = async (p: ServerProcess, method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(p.baseUrl + pathname, {
      method,
      redirect: 'manual',
      headers: { ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const jobStates = async (queue: string) =>
    ((await db.knex.raw(`select state::text as state from pgboss.job where name = ? order by created_on`, [queue])) as { rows: Array<{ state: string }> }).rows.map((row) => row.state);
  const sends = () => manychat.requests.filter((req) => req.path === '/fb/sending/sendContent');

  it('the API processes only enqueue; the worker does every job, once', async () => {
    // Both API processes start together on the empty database: one migrates, the other waits for it.
    const [api1, api2] = await Promise.all([start('api1', 'api'), start('api2', 'api')]);
    for (const api of [api1, api2]) {
      const ready = await call(api, 'GET', '/api/system/health/ready');
      expect(ready.body.jobs).to.deep.equal({ started: true, workers: false });
    }
    await seed({ baseUrl: api1.baseUrl, superuserToken: SUPERUSER, passwords: PASSWORDS, catalog: 'always' });

    // A guest holds through api1 and pays through api2 (no sticky session: the hold's token is all it needs).
    const [pick] = (
      (await db.knex.raw(
        `select e.slug, o.code from show_events e join offers o on o.show_id = e.show_id
          where e.sales_open and e.status = 'SCHEDULED' and e.starts_at > now() + interval '3 days' and o.status = 'ACTIVE' and o.min_guests <= 2
          order by e.starts_at, o.code limit 1`,
      )) as { rows: Array<{ slug: string; code: string }> }
    ).rows;
    const contact = (n: number) => ({ name: `Guest ${n}`, email: `guest${n}@example.com`, phone: '+84 90 123 4567', locale: 'en' });
    const held = await call(api1, 'POST', '/api/public/reservations', { eventSlug: pick.slug, offerCode: pick.code, guestCount: 2, contact: contact(1) });
    expect(held.status, JSON.stringify(held.body)).to.equal(201);
    const checkout = await call(api2, 'POST', `/api/public/reservations/${held.body.reference}/checkout`, { method: 'VNPAY', locale: 'en' }, { 'x-reservation-token': held.body.accessToken });
    expect(checkout.status, JSON.stringify(checkout.body)).to.equal(201);
    const payUrl = new URL(checkout.body.vnpay.paymentUrl);
    expect(payUrl.port).to.equal(new URL(api2.baseUrl).port);
    const paid = await call(api2, 'POST', payUrl.pathname + payUrl.search, 'outcome=pay', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(paid.status).to.equal(303);
    const reservation = (reference: string) => db.knex('reservations').where({ reference }).first('id', 'status');
    expect(await reservation(held.body.reference)).to.include({ status: 'CONFIRMED' });
    // The confirmation reads the same through either process.
    for (const api of [api1, api2]) {
      const seen = await call(api, 'GET', `/api/public/reservations/${held.body.reference}`, undefined, { 'x-reservation-token': held.body.accessToken });
      expect(seen.status).to.equal(200);
      expect(seen.body.status).to.equal('CONFIRMED');
    }

    // A second guest holds through api2 and lets the hold run out (its time moved back; its expiry job made due).
    const lapsed = await call(api2, 'POST', '/api/public/reservations', { eventSlug: pick.slug, offerCode: pick.code, guestCount: 2, contact: contact(2) });
    expect(lapsed.status).to.equal(201);
    const lapsedRow = await reservation(lapsed.body.reference);
    await db.knex('reservations').where({ id: lapsedRow.id }).update({ hold_expires_at: db.knex.raw("now() - interval '1 second'") });
    await db.knex.raw(`update pgboss.job set start_after = now() where name = 'booking.expire-holds' and state = 'created'`);

    // A chat turn through each API process.
    for (const [api, subscriber] of [[api1, 1001], [api2, 1002]] as const) {
      const ack = await call(api, 'POST', '/llm/chat-platform', { subscriber_id: subscriber, channel: 'facebook', language: 'en', last_input_text: 'What shows are on?' }, { 'x-svc-chat-token': WEBHOOK });
      expect(ack.status).to.equal(200);
      expect(ack.body.content.messages[0].text).to.match(/^Thanks for your message!/);
    }

    // No worker yet: several polling intervals later everything is still queued, nothing sent, the hold still HELD.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await jobStates('chatPlatform.turn')).to.deep.equal(['created', 'created']);
    expect(await jobStates('booking.expire-holds')).to.include('created').and.not.include('completed');
    expect((await jobStates('email.send')).length, 'the confirmation e-mail is queued').to.be.greaterThan(0);
    expect(await jobStates('email.send')).to.satisfy((states: string[]) => states.every((state) => state === 'created'));
    expect(sends()).to.have.length(0);
    expect(await reservation(lapsed.body.reference)).to.include({ status: 'HELD' });
    for (const api of [api1, api2]) expect(api.logs().some((line) => line.msg === 'job workers started'), api.name).to.equal(false);

    // The worker: health probes only, and all the jobs.
    const worker = await start('worker', 'worker', { ASSISTANT_API_BASE_URL: api1.baseUrl });
    expect((await call(worker, 'GET', '/api/system/health/ready')).body.jobs).to.deep.equal({ started: true, workers: true });
    const notApi = await call(worker, 'GET', '/api/public/shows');
    expect(notApi.status).to.equal(404);
    expect(notApi.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(notApi.body).to.include({ status: 404, code: 'not_found' });

    const turns = () => db.knex('chat_turns').orderBy('recipient').select('recipient', 'status', 'attempts');
    await eventually(turns, { until: (rows) => rows.length === 2 && rows.every((row) => row.status === 'SENT'), timeoutMs: 60_000, what: () => `both chat turns sent:\n${worker.output()}` });
    await eventually(() => reservation(lapsed.body.reference), { until: (row) => row.status === 'EXPIRED', timeoutMs: 30_000, what: 'the hold to expire' });
    const emails = () => db.knex('email_messages').orderBy(['reservation_id', 'template']).select('reservation_id', 'template', 'status');
    await eventually(emails, { until: (rows) => rows.length >= 2 && rows.every((row) => row.status === 'SENT'), timeoutMs: 30_000, what: 'the e-mails sent' });

    // Nothing twice: give the three processes a few more polls and sweeps, then count.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await turns()).map((row) => [row.recipient, row.status, row.attempts])).to.deep.equal([['1001', 'SENT', 1], ['1002', 'SENT', 1]]);
    expect(sends().map((req) => String(req.body.subscriber_id)).sort()).to.deep.equal(['1001', '1002']);
    const mails = await emails();
    const byKey = new Map<string, number>();
    for (const row of mails) byKey.set(`${row.reservation_id} ${row.template}`, (byKey.get(`${row.reservation_id} ${row.template}`) ?? 0) + 1);
    expect([...byKey.values()].every((n) => n === 1), JSON.stringify(mails)).to.equal(true);
    expect(mails.filter((row) => row.reservation_id === lapsedRow.id).map((row) => row.template)).to.have.length(1);
    const outbox = fs.readdirSync(path.join(dataDir, 'outbox')).filter((file) => file.endsWith('.eml'));
    expect(outbox).to.have.length(mails.length);
    // Every job due was done by the worker: completed, none failed or retried, none left (the reminders are due before the show).
    const left = (await db.knex.raw(`select name, state::text as state from pgboss.job where state <> 'completed' and start_after <= now()`)) as { rows: unknown[] };
    expect(left.rows).to.deep.equal([]);
    for (const api of [api1, api2]) expect(api.logs().some((line) => line.msg === 'job workers started'), api.name).to.equal(false);
    expect(worker.logs().some((line) => line.msg === 'job workers started')).to.equal(true);

    // A graceful stop of each.
    expect(await Promise.all(processes.map((p) => p.stop()))).to.deep.equal([0, 0, 0]);
  });
});
