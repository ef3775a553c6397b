import { expect } from 'chai';
import { buildMemberSession } from '../../helpers/factories.ts';
import { closedPortUrl } from '../../helpers/fakePeer.ts';
import { capturedEvents, startFakePostHog, type FakePostHog } from '../../helpers/fakePosthog.ts';
import { startFakeTurnstile, TURNSTILE_DUMMY_TOKEN, TURNSTILE_TEST_SECRETS, type FakeTurnstile } from '../../helpers/fakeTurnstile.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';
import { apiKeyWith, MISSING_ID, requestsAs } from '../shows/catalog.ts';

/**
 * Inquiries (issue 13): the public form with the Turnstile bot check (against a local fake siteverify that
 * answers as Cloudflare documents for its test secrets), its e-mails and business event; staff triage.
 */
let ip = 1;
const fromNewAddress = () => ({ 'x-forwarded-for': `10.20.${(ip >> 8) & 255}.${ip++ & 255}` });
const inquiry = (extra: Record<string, unknown> = {}) => ({
  type: 'PRIVATE_EVENT',
  name: 'Nguyễn Thị Lan',
  email: 'Lan.Nguyen@example.com',
  phone: '+84 90 123 4567',
  locale: 'vi',
  preferredDate: '2026-12-24',
  guestCount: 40,
  message: 'Year-end party for our company.',
  ...extra,
});

describe('inquiries: POST /api/inquiries with the bot check configured (Turnstile siteverify)', () => {
  let turnstile: FakeTurnstile;
  let server: TestServer;
  const start = async (config: Record<string, unknown>) => {
    server = await startTestServer({ config: { trustProxy: true, botcheckVerifyUrl: turnstile.url, botcheckTimeoutMs: 2000, venueNotificationsEmail: 'ops@venue.example', ...config } });
  };
  const submit = (body: Record<string, unknown>, headers: Record<string, string> = {}) => server.request<any>('POST', '/api/inquiries', { body, headers: { ...fromNewAddress(), ...headers } });
  const count = async (table: string) => Number((await server.db.knex(table).count({ n: '*' }).first())!.n);

  beforeEach(async () => {
    turnstile = await startFakeTurnstile();
  });
  afterEach(async () => {
    await server?.close();
    await turnstile.close();
  });

  it('passes with the always-pass test secret: siteverify gets secret, token, remote address and idempotency key', async () => {
    await start({ botcheckSecretKey: TURNSTILE_TEST_SECRETS.pass });
    const res = await submit(inquiry({ botcheckToken: TURNSTILE_DUMMY_TOKEN }), { 'x-forwarded-for': '203.0.113.9', 'idempotency-key': 'inquiry-key-0123456789' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ type: 'PRIVATE_EVENT', status: 'NEW' });
    expect(Object.keys(res.body).sort()).to.deep.equal(['createdAt', 'id', 'status', 'type']);
    expect(turnstile.requests).to.have.length(1);
    expect(turnstile.requests[0].contentType).to.equal('application/x-www-form-urlencoded');
    expect(turnstile.requests[0].form).to.deep.equal({ secret: TURNSTILE_TEST_SECRETS.pass, response: TURNSTILE_DUMMY_TOKEN, remoteip: '203.0.113.9', idempotency_key: 'inquiry-key-0123456789' });
    const row = await server.db.knex('inquiries').where({ id: res.body.id }).first();
    expect(row).to.include({ botcheck_verified: true, status: 'NEW', guest_count: 40, email: 'Lan.Nguyen@example.com' });
    const customer = await server.db.knex('customers').where({ id: row.customer_id }).first();
    expect(customer.email_normalized).to.equal('lan.nguyen@example.com');
    const mails = await server.db.knex('email_messages').orderBy('to_address');
    expect(mails.map((m: any) => [m.template, m.to_address, m.locale])).to.deep.equal([
      ['inquiry-acknowledgement', 'Lan.Nguyen@example.com', 'vi'],
      ['inquiry-notification', 'ops@venue.example', 'en'],
    ]);
    expect(mails[0].text_body).to.include('Sự kiện riêng');
    expect(mails[1].text_body).to.include(res.body.id);
  });

  it('400 botcheck_required without a token, 400 botcheck_failed for the fail and spent secrets; nothing stored', async () => {
    await start({ botcheckSecretKey: TURNSTILE_TEST_SECRETS.fail });
    const missing = await submit(inquiry());
    expect(missing.status).to.equal(400);
    expect(missing.body.code).to.equal('botcheck_required');
    expect(missing.body.errors[0].path).to.equal('body/botcheckToken');
    expect(turnstile.requests).to.have.length(0);
    const failed = await submit(inquiry({ botcheckToken: TURNSTILE_DUMMY_TOKEN }));
    expect(failed.status).to.equal(400);
    expect(failed.body.code).to.equal('botcheck_failed');
    expect(failed.body.detail).to.include('invalid-input-response');
    await server.close();
    await start({ botcheckSecretKey: TURNSTILE_TEST_SECRETS.spent });
    const spent = await submit(inquiry({ botcheckToken: TURNSTILE_DUMMY_TOKEN }));
    expect(spent.body).to.include({ status: 400, code: 'botcheck_failed' });
    expect(spent.body.detail).to.include('timeout-or-duplicate');
    expect(await count('inquiries')).to.equal(0);
    expect(await count('customers')).to.equal(0);
    expect(await count('email_messages')).to.equal(0);
  });

  it('checks hostname and action when configured', async () => {
    await start({ botcheckSecretKey: TURNSTILE_TEST_SECRETS.pass, botcheckHostname: 'venue.example', botcheckAction: 'inquiry' });
    turnstile.state.hostname = 'evil.example';
    turnstile.state.action = 'inquiry';
    expect((await submit(inquiry({ botcheckToken: 't' }))).body.detail).to.include('hostname-mismatch');
    turnstile.state.hostname = 'venue.example';
    turnstile.state.action = 'login';
    expect((await submit(inquiry({ botcheckToken: 't' }))).body.detail).to.include('action-mismatch');
    turnstile.state.action = 'inquiry';
    expect((await submit(inquiry({ botcheckToken: 't' }))).status).to.equal(201);
  });

  it('503 botcheck_unavailable when siteverify errs, answers garbage, is unreachable or rejects our secret; nothing stored', async () => {
    await start({ botcheckSecretKey: TURNSTILE_TEST_SECRETS.pass });
    turnstile.state.mode = 'error';
    const errored = await submit(inquiry({ botcheckToken: 't' }));
    expect(errored.status).to.equal(503);
    expect(errored.body.code).to.equal('botcheck_unavailable');
    turnstile.state.mode = 'garbage';
    expect((await submit(inquiry({ botcheckToken: 't' }))).status).to.equal(503);
    await server.close();
    await start({ botcheckSecretKey: 'not-a-real-secret' });
    expect((await submit(inquiry({ botcheckToken: 't' }))).body.code).to.equal('botcheck_unavailable');
    await server.close();
    // A port nobody listens on.
    await start({ botcheckSecretKey: TURNSTILE_TEST_SECRETS.pass, botcheckVerifyUrl: `${await closedPortUrl()}/siteverify` });
    expect((await submit(inquiry({ botcheckToken: 't' }))).status).to.equal(503);
    expect(await count('inquiries')).to.equal(0);
    expect(await count('email_messages')).to.equal(0);
  });
});

describe('inquiries: without the bot-check secret, e-mails, the business event, staff triage', () => {
  let server: TestServer;
  let posthog: FakePostHog;
  let staff: ReturnType<typeof requestsAs>;
  let staffAccountId: string;
  before(async () => {
    posthog = await startFakePostHog();
    server = await startTestServer({ config: { trustProxy: true, analyticsEnabled: true, posthogApiKey: 'phc_test', posthogHost: posthog.url } });
    const member = await buildMemberSession('member');
    staff = requestsAs(server, cookieHeader(member.token));
    staffAccountId = member.account.id;
  });
  after(async () => {
    await server.close();
    await posthog.close();
  });
  const submit = (body: Record<string, unknown>, headers: Record<string, string> = fromNewAddress()) => server.request<any>('POST', '/api/inquiries', { body, headers });

  it('takes an inquiry without a token (none configured), ignores a sent token, and emits `inquiry submitted` with the type only', async () => {
    const res = await submit(inquiry({ type: 'CORPORATE', botcheckToken: 'whatever' }));
    expect(res.status).to.equal(201);
    expect((await server.db.knex('inquiries').where({ id: res.body.id }).first()).botcheck_verified).to.equal(false);
    expect((await submit(inquiry({ email: 'second@example.com', locale: undefined, phone: undefined, preferredDate: undefined, guestCount: undefined }))).status).to.equal(201);
    await server.app.context.analytics.flush();
    const events = capturedEvents(await posthog.received(1)).filter((e) => e.event === 'inquiry submitted');
    expect(events).to.have.length(2);
    expect(events[0].properties).to.include({ inquiry_type: 'CORPORATE' });
    expect(JSON.stringify(events)).not.to.include('example.com');
    expect(JSON.stringify(events)).not.to.include('Lan');
    // No VENUE_NOTIFICATIONS_EMAIL: only the acknowledgements.
    expect(await server.db.knex('email_messages').pluck('template')).to.deep.equal(['inquiry-acknowledgement', 'inquiry-acknowledgement']);
  });

  it('400 for invalid bodies (fields named), 429 past the per-address limit', async () => {
    const bad = await submit({ type: 'PARTY', name: 'x', email: 'not-an-email', message: 'hi' });
    expect(bad.status).to.equal(400);
    expect((await submit(inquiry({ message: '' }))).status).to.equal(400);
    expect((await submit(inquiry({ extra: 1 }))).status).to.equal(400);
    expect((await submit(inquiry({ guestCount: 0 }))).status).to.equal(400);
    const fixed = { 'x-forwarded-for': '198.18.0.1' };
    let last;
    for (let i = 0; i < 11; i++) last = await submit(inquiry(), fixed);
    expect(last!.status).to.equal(429);
    expect(last!.headers.get('retry-after')).to.match(/^\d+$/);
  });

  it('staff list, read, update, follow up (ledger e-mail recorded on the inquiry) and archive; anonymous callers get 401', async () => {
    const { body: created } = await submit(inquiry({ message: 'Wedding dinner for 60' }));
    const id = created.id;
    for (const [method, path] of [['get', '/api/inquiries'], ['get', `/api/inquiries/${id}`], ['delete', `/api/inquiries/${id}`]] as const) {
      expect((await requestsAs(server, {})[method](path)).status).to.equal(401);
    }
    expect((await requestsAs(server, {}).patch(`/api/inquiries/${id}`, { status: 'CLOSED' })).status).to.equal(401);
    expect((await requestsAs(server, {}).post(`/api/inquiries/${id}/follow-ups`, { subject: 's', message: 'm' })).status).to.equal(401);
    const keyReader = await apiKeyWith('inquiries:read');
    expect((await requestsAs(server, keyReader).get(`/api/inquiries/${id}`)).status).to.equal(200);
    expect((await requestsAs(server, keyReader).delete(`/api/inquiries/${id}`)).status).to.equal(403);

    const listed = await staff.get('/api/inquiries?q=wedding');
    expect(listed.body.total).to.equal(1);
    expect(listed.body.items[0]).to.include({ id, status: 'NEW', preferredDate: '2026-12-24', guestCount: 40 });
    const updated = await staff.patch(`/api/inquiries/${id}`, { status: 'IN_PROGRESS', assigneeId: staffAccountId });
    expect(updated.body).to.include({ status: 'IN_PROGRESS', assigneeId: staffAccountId });
    expect((await staff.get(`/api/inquiries?assigneeId=${staffAccountId}`)).body.total).to.equal(1);
    expect((await staff.patch(`/api/inquiries/${id}`, { assigneeId: MISSING_ID })).body.code).to.equal('unknown_assignee');
    expect((await staff.patch(`/api/inquiries/${id}`, { status: 'ARCHIVED' })).status).to.equal(400);

    const followUp = await staff.post(`/api/inquiries/${id}/follow-ups`, { subject: 'Your wedding dinner', message: 'We can host 60 guests.' });
    expect(followUp.status).to.equal(201);
    expect(followUp.body).to.include({ subject: 'Your wedding dinner', sentBy: staffAccountId });
    const mail = await server.db.knex('email_messages').where({ id: followUp.body.emailMessageId }).first();
    expect(mail).to.include({ template: 'inquiry-follow-up', to_address: 'Lan.Nguyen@example.com', subject: 'Your wedding dinner', locale: 'vi' });
    expect(mail.text_body).to.include('We can host 60 guests.');
    const detail = (await staff.get(`/api/inquiries/${id}`)).body;
    expect(detail.inquiry.status).to.equal('FOLLOWED_UP');
    expect(detail.followUps.map((f: any) => f.id)).to.deep.equal([followUp.body.id]);

    expect((await staff.delete(`/api/inquiries/${id}`)).status).to.equal(204);
    expect((await staff.delete(`/api/inquiries/${id}`)).status).to.equal(204);
    expect((await staff.get('/api/inquiries?q=wedding')).body.total).to.equal(0);
    expect((await staff.get('/api/inquiries?q=wedding&status=ARCHIVED')).body.items[0].archivedAt).to.be.a('string');
    expect((await staff.patch(`/api/inquiries/${id}`, { status: 'CLOSED' })).body.code).to.equal('inquiry_archived');
    expect((await staff.post(`/api/inquiries/${id}/follow-ups`, { subject: 's', message: 'm' })).body.code).to.equal('inquiry_archived');
    for (const path of [`/api/inquiries/${MISSING_ID}`]) {
      expect((await staff.get(path)).status).to.equal(404);
      expect((await staff.delete(path)).status).to.equal(404);
      expect((await staff.post(`${path}/follow-ups`, { subject: 's', message: 'm' })).status).to.equal(404);
    }
  });
});
