import { expect } from 'chai';
import { countRows, me, signIn, signInOrFail, sudo } from '../helpers/accounts.ts';
import { buildAccount, canonicalOrganization } from '../helpers/factories.ts';
import { SUPERUSER_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { DateTime } from 'luxon';
import { unwrap } from '../../sdk/index.ts';
import {
  CATALOG_STEPS,
  DEMO_COMMERCIAL_SETUP,
  DEMO_KNOWLEDGE,
  DEMO_FULFILLMENT_ITEMS,
  DEMO_OFFERS,
  DEMO_SHOWS,
  DEMO_WEEKS,
  formatSeedResult,
  seed,
  SeedError,
  SEED_ACCOUNTS,
  SEED_STEPS,
  type SeedPasswords,
  type SeedProgress,
  type SeedResult,
} from '../../seed/index.ts';

const PASSWORDS: SeedPasswords = { admin: 'admin password 1', marketing: 'marketing password 1', staff: 'staff password 1' };

describe('cli: seeder', () => {
  let server: TestServer;
  // A fresh (emptied) database for every case: the seeder's behaviour depends on what already exists.
  beforeEach(async () => {
    server = await startTestServer({ config: { emailDomain: 'venue.test' } });
  });
  afterEach(() => server.close());

  // The accounts only: the demo venue has its own cases below.
  const run = async (passwords: SeedPasswords = PASSWORDS, superuserToken = SUPERUSER_TOKEN) =>
    (await seed({ baseUrl: server.baseUrl, superuserToken, passwords, catalog: 'never' })).accounts;

  async function canonicalMembers() {
    const canonical = await canonicalOrganization();
    const res = await sudo(server, 'GET', `/api/sudo/organization-members?organizationId=${canonical.id}`);
    expect(res.status).to.equal(200);
    return Object.fromEntries(res.body.items.map((m: any) => [m.accountEmail, m.role]));
  }

  it('creates admin and marketing (member role admin) and staff (member) in the canonical organization', async () => {
    const report = await run();
    expect(report).to.deep.equal([
      { username: 'admin', account: 'created', membership: 'created' },
      { username: 'marketing', account: 'created', membership: 'created' },
      { username: 'staff', account: 'created', membership: 'created' },
    ]);
    expect(await canonicalMembers()).to.deep.equal({
      'admin@venue.test': 'admin',
      'marketing@venue.test': 'admin',
      'staff@venue.test': 'member',
    });
    const users = await sudo(server, 'GET', '/api/sudo/users');
    expect(users.body.total).to.equal(3);
    // Bootstrap accounts carry no SUPERUSER account role: their power comes from the membership only.
    for (const account of users.body.items) expect(account.role).to.equal('USER');
  });

  it('sends no request that fails, on a fresh database and on a second run', async () => {
    const failed = () => server.logs.filter((line) => line.msg === 'request' && line.status >= 400);
    await run();
    expect(failed()).to.deep.equal([]);
    await run({});
    expect(failed()).to.deep.equal([]);
    expect(server.logs.filter((line) => line.msg === 'request').length).to.be.greaterThan(6);
  });

  it('lets the seeded accounts sign in by username, with the role of their membership', async () => {
    await run();
    const { token, principal } = await signInOrFail(server, 'admin', PASSWORDS.admin!);
    expect(principal.role).to.equal('admin');
    const res = await me(server, token);
    expect(res.status).to.equal(200);
    expect(res.body.role).to.equal('admin');
    expect(res.body.activeOrganization.id).to.equal((await canonicalOrganization()).id);
    expect((await signInOrFail(server, 'marketing', PASSWORDS.marketing!)).principal.role).to.equal('admin');
    expect((await signInOrFail(server, 'staff', PASSWORDS.staff!)).principal.role).to.equal('staff');
  });

  it('is idempotent: a second run reports existing/unchanged and changes no row or password', async () => {
    await run();
    const knex = server.db.knex;
    const before = { accounts: await countRows(knex, 'accounts'), members: await countRows(knex, 'organization_members') };
    const membersBefore = await knex('organization_members').orderBy('id');

    const report = await run({ admin: 'other password 2', marketing: 'other password 2', staff: 'other password 2' });
    expect(report).to.deep.equal(
      SEED_ACCOUNTS.map(({ username }) => ({ username, account: 'existing', membership: 'unchanged' })),
    );
    expect({ accounts: await countRows(knex, 'accounts'), members: await countRows(knex, 'organization_members') }).to.deep.equal(before);
    expect(await knex('organization_members').orderBy('id')).to.deep.equal(membersBefore);
    // Existing accounts keep their passwords.
    expect((await signIn(server, 'admin', PASSWORDS.admin!)).res.status).to.equal(200);
    expect((await signIn(server, 'admin', 'other password 2')).res.status).to.equal(401);
  });

  it('needs no passwords once the accounts exist', async () => {
    await run();
    const report = await run({});
    expect(report.map((r) => r.account)).to.deep.equal(['existing', 'existing', 'existing']);
  });

  it('puts a changed membership role back', async () => {
    await run();
    const promoted = await sudo(server, 'POST', '/api/sudo/ensure-organization-member', { email: 'staff', role: 'owner' });
    expect(promoted.body.outcome).to.equal('updated');
    const report = await run({});
    expect(report.find((r) => r.username === 'staff')).to.deep.equal({ username: 'staff', account: 'existing', membership: 'updated' });
    expect((await canonicalMembers())['staff@venue.test']).to.equal('member');
  });

  it('attaches an account that exists without a membership', async () => {
    await buildAccount({ email: 'marketing@venue.test' });
    const report = await run({ admin: PASSWORDS.admin, staff: PASSWORDS.staff });
    expect(report.find((r) => r.username === 'marketing')).to.deep.equal({ username: 'marketing', account: 'existing', membership: 'created' });
    expect((await canonicalMembers())['marketing@venue.test']).to.equal('admin');
  });

  it('throws SeedError naming the variable when a new account has no password', async () => {
    let thrown: unknown;
    try {
      await run({ admin: PASSWORDS.admin, staff: PASSWORDS.staff });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).to.be.instanceOf(SeedError);
    expect((thrown as Error).message).to.contain('SEED_MARKETING_PASSWORD');
    expect(await countRows(server.db.knex, 'accounts', { email: 'marketing@venue.test' })).to.equal(0);
  });

  it('throws SeedError when the superuser token is refused', async () => {
    let thrown: unknown;
    try {
      await run(PASSWORDS, 'not-a-superuser-token');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).to.be.instanceOf(SeedError);
    expect(await countRows(server.db.knex, 'accounts')).to.equal(0);
  });

  it('throws SeedError for a password the API refuses', async () => {
    let thrown: unknown;
    try {
      await run({ ...PASSWORDS, admin: 'short' });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).to.be.instanceOf(SeedError);
    expect((thrown as Error).message).to.contain('400');
  });

  it('is not misled by accounts of the same name at another domain', async () => {
    await buildAccount({ email: 'admin@elsewhere.example' });
    await buildAccount({ email: 'staff@elsewhere.example' });
    const report = await run();
    expect(report.map((r) => [r.username, r.account])).to.deep.equal([
      ['admin', 'created'],
      ['marketing', 'created'],
      ['staff', 'created'],
    ]);
    const members = await canonicalMembers();
    expect(members['admin@venue.test']).to.equal('admin');
    expect(members['staff@venue.test']).to.equal('member');
    expect(members).not.to.have.property('admin@elsewhere.example');
  });
});

describe('cli: seeder, the demo venue', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ config: { emailDomain: 'venue.test' } });
  });
  afterEach(() => server.close());

  const run = (options: Partial<Parameters<typeof seed>[0]> = {}) =>
    seed({ baseUrl: server.baseUrl, superuserToken: SUPERUSER_TOKEN, passwords: PASSWORDS, ...options } as Parameters<typeof seed>[0]);
  const counts = (result: SeedResult) => Object.fromEntries(result.steps.map((step) => [step.resource, [step.created, step.updated, step.unchanged]]));
  const CATALOG_TABLES = ['shows', 'show_events', 'fulfillment_items', 'offers', 'offer_items', 'venue_tables', 'commercial_setup', 'knowledge_documents', 'knowledge_revisions'];
  /** Every catalog row, updated_at included, in a stable order. */
  async function snapshot() {
    const rows: Record<string, string[]> = {};
    for (const table of CATALOG_TABLES) rows[table] = (await server.db.knex(table).select()).map((row) => JSON.stringify(row)).sort();
    return rows;
  }
  /** Events per show over the seeded weeks: every weekday occurs DEMO_WEEKS times in DEMO_WEEKS × 7 days. */
  const expectedEvents = Object.fromEntries(
    DEMO_SHOWS.map((show) => {
      const perWeek = show.schedule.weekdays.length * show.schedule.times.length + ('extra' in show.schedule ? show.schedule.extra.weekdays.length * show.schedule.extra.times.length : 0);
      return [show.code, perWeek * DEMO_WEEKS];
    }),
  );
  const totalEvents = Object.values(expectedEvents).reduce((sum, n) => sum + n, 0);

  it('creates the demo venue: items, three published shows (one canonical), offers, 20 tables in 4 zones, the setup, 8 weeks of events', async () => {
    const progress: string[] = [];
    const result = await run({ onProgress: (p: SeedProgress) => progress.push(`${p.resource}:${p.state}`) });
    expect(counts(result)).to.deep.equal({
      accounts: [3, 0, 0],
      'fulfillment items': [DEMO_FULFILLMENT_ITEMS.length, 0, 0],
      shows: [3, 0, 0],
      offers: [DEMO_OFFERS.length, 0, 0],
      tables: [20, 0, 0],
      'commercial setup': [0, 1, 0],
      events: [totalEvents, 0, 0],
      knowledge: [DEMO_KNOWLEDGE.length, 0, 0],
      referrals: [10, 0, 0],
    });
    expect(result.changed).to.equal(true);
    expect(progress).to.deep.equal(SEED_STEPS.flatMap((step) => [`${step}:running`, `${step}:done`]));

    const knex = server.db.knex;
    const shows = await knex('shows').orderBy('sort_order');
    // The age rule of each (issue 34 §3), as the knowledge base's "Children and families" says: from eight, the
    // family show from four, the late jazz set adults only.
    expect(shows.map((show) => [show.code, show.status, show.canonical, show.minimum_age])).to.deep.equal([
      ['SGC', 'PUBLISHED', true, 8],
      ['LTS', 'PUBLISHED', false, 4],
      ['JZN', 'PUBLISHED', false, 18],
    ]);
    expect(await countRows(knex, 'fulfillment_items')).to.equal(DEMO_FULFILLMENT_ITEMS.length);
    expect(await countRows(knex, 'offers', { status: 'ACTIVE' })).to.equal(DEMO_OFFERS.length);
    expect(await countRows(knex, 'offer_items')).to.equal(DEMO_OFFERS.reduce((sum, offer) => sum + offer.items.length, 0));
    const tables = await knex('venue_tables').select('zone').count({ n: '*' }).groupBy('zone');
    expect(Object.fromEntries(tables.map((row: any) => [row.zone, Number(row.n)]))).to.deep.equal({ STAGE_FRONT: 4, VIP: 4, MAIN: 8, BALCONY: 4 });
    const setup = unwrap(await server.client({ superuserToken: SUPERUSER_TOKEN }).GET('/api/commercial-setup'));
    expect({ ...setup, updatedAt: undefined }).to.deep.equal({ ...DEMO_COMMERCIAL_SETUP, paymentGateways: [...DEMO_COMMERCIAL_SETUP.paymentGateways], updatedAt: undefined });

    // The weekly pattern, in the venue's time zone: 19:30 Tuesday–Sunday for SGC, and so on.
    const events = await knex('show_events').join('shows', 'shows.id', 'show_events.show_id').select('shows.code', 'show_events.starts_at', 'show_events.slug', 'show_events.capacity');
    const byShow = (code: string) => events.filter((event) => event.code === code);
    for (const show of DEMO_SHOWS) {
      expect(byShow(show.code), show.code).to.have.length(expectedEvents[show.code]);
      const allowed = new Set<string>();
      const patterns = [show.schedule, ...('extra' in show.schedule ? [show.schedule.extra] : [])];
      for (const pattern of patterns) for (const weekday of pattern.weekdays) for (const time of pattern.times) allowed.add(`${weekday} ${time}`);
      for (const event of byShow(show.code)) {
        const local = DateTime.fromJSDate(new Date(event.starts_at)).setZone(server.config.venueTimezone);
        expect(allowed.has(local.toFormat('c HH:mm')), `${event.slug} on ${local.toISO()}`).to.equal(true);
        expect(event.slug).to.equal(`${show.slug}-${local.toFormat('yyyy-MM-dd-HHmm')}`);
        expect(event.capacity).to.equal(show.schedule.capacity);
      }
    }
    const today = DateTime.now().setZone(server.config.venueTimezone).toISODate()!;
    const dates = events.map((event) => DateTime.fromJSDate(new Date(event.starts_at)).setZone(server.config.venueTimezone).toISODate()!).sort();
    expect(dates[0] >= today).to.equal(true);
    expect(dates.at(-1)! <= DateTime.fromISO(today).plus({ days: DEMO_WEEKS * 7 - 1 }).toISODate()!).to.equal(true);
  });

  it('a second run reports every step unchanged, says so, writes nothing and sends no failing request', async () => {
    await run();
    const before = await snapshot();
    const second = await run({ passwords: {} });
    expect(counts(second)).to.deep.equal({
      accounts: [0, 0, 3],
      'fulfillment items': [0, 0, DEMO_FULFILLMENT_ITEMS.length],
      shows: [0, 0, 3],
      offers: [0, 0, DEMO_OFFERS.length],
      tables: [0, 0, 20],
      'commercial setup': [0, 0, 1],
      events: [0, 0, totalEvents],
      knowledge: [0, 0, DEMO_KNOWLEDGE.length],
      referrals: [0, 0, 6],
    });
    expect(second.changed).to.equal(false);
    expect(formatSeedResult(second)).to.contain('Nothing changed: everything was already seeded.');
    expect(await snapshot()).to.deep.equal(before);
    expect(server.logs.filter((line) => line.msg === 'request' && line.status >= 400)).to.deep.equal([]);
  });

  it('sets edited demo values back (reported as updated), keeps what operators added, never re-creates a cancelled event', async () => {
    await run();
    const client = server.client({ superuserToken: SUPERUSER_TOKEN });
    const shows = unwrap(await client.GET('/api/shows', { params: { query: { search: 'LTS' } } })).items;
    const lotus = shows.find((show) => show.code === 'LTS')!;
    unwrap(await client.PATCH('/api/shows/{showId}', { params: { path: { showId: lotus.id } }, body: { title: { en: 'Renamed', vi: 'Đổi tên' }, minimumAge: null } }));
    unwrap(await client.POST('/api/shows/{showId}/unpublish', { params: { path: { showId: lotus.id } } }));
    const m1 = unwrap(await client.GET('/api/tables', { params: { query: { limit: 100 } } })).items.find((table) => table.code === 'M1')!;
    unwrap(await client.PATCH('/api/tables/{tableId}', { params: { path: { tableId: m1.id } }, body: { seats: 9 } }));
    unwrap(await client.POST('/api/tables', { body: { code: 'X1', zone: 'MAIN', seats: 2 } }));
    unwrap(await client.PATCH('/api/commercial-setup', { body: { holdMinutes: 30 } }));
    const event = await server.db.knex('show_events').orderBy('starts_at', 'desc').first();
    unwrap(await client.POST('/api/show-events/{eventId}/cancel', { params: { path: { eventId: event.id } }, body: { reason: 'Stage repairs' } }));

    const result = await run({ passwords: {} });
    expect(counts(result)).to.deep.include({ shows: [0, 1, 2], tables: [0, 1, 19], 'commercial setup': [0, 1, 0], events: [0, 0, totalEvents] });
    const again = unwrap(await client.GET('/api/shows/{showId}', { params: { path: { showId: lotus.id } } }));
    expect([again.title.en, again.status, again.minimumAge]).to.deep.equal(['Lotus Tales', 'PUBLISHED', 4]);
    expect(await countRows(server.db.knex, 'venue_tables')).to.equal(21);
    expect((await server.db.knex('show_events').where({ id: event.id }).first()).status).to.equal('CANCELLED');
    expect(await countRows(server.db.knex, 'show_events')).to.equal(totalEvents);
  });

  it('when-empty (npm start) leaves a catalog that has shows alone; never seeds the accounts only', async () => {
    const never = await run({ catalog: 'never' });
    expect(never.steps.filter((step) => step.skipped).map((step) => step.resource)).to.deep.equal([...CATALOG_STEPS]);
    expect(await countRows(server.db.knex, 'shows')).to.equal(0);
    const first = await run({ catalog: 'when-empty', passwords: {} });
    expect(counts(first).shows).to.deep.equal([3, 0, 0]);
    unwrap(await server.client({ superuserToken: SUPERUSER_TOKEN }).PATCH('/api/commercial-setup', { body: { holdMinutes: 30 } }));
    const before = await snapshot();
    const restart = await run({ catalog: 'when-empty', passwords: {} });
    expect(restart.steps.filter((step) => step.skipped).map((step) => step.resource)).to.deep.equal([...CATALOG_STEPS]);
    expect(await snapshot()).to.deep.equal(before);
  });

  it('the public catalog then lists the shows and upcoming events with priced offers', async () => {
    await run();
    const shows = await server.request('GET', '/api/public/shows?locale=vi');
    expect(shows.status).to.equal(200);
    expect(shows.body.items.map((show: any) => show.slug)).to.deep.equal(DEMO_SHOWS.map((show) => show.slug));
    expect(shows.body.items[0].title).to.equal('Biên niên Sài Gòn');
    for (const show of shows.body.items) expect(show.priceFrom, show.slug).to.be.an('object');
    const events = await server.request('GET', '/api/public/show-events?locale=en&limit=100');
    expect(events.status).to.equal(200);
    expect(events.body.total).to.be.greaterThan(totalEvents - 8);
    expect(events.body.items.length).to.be.greaterThan(0);
    for (const event of events.body.items) expect(event.offerCodes.length, event.slug).to.be.greaterThan(0);
    const offerCodes = events.body.offers.map((offer: any) => offer.code).sort();
    // The private-event offer is for every show.
    expect(offerCodes).to.deep.equal(DEMO_OFFERS.map((offer) => offer.code).sort());
    const dinner = events.body.offers.find((offer: any) => offer.code === 'SGC-DINNER');
    // 1,650,000 + 5 % service charge, + 8 % VAT of both.
    expect(dinner.perGuest).to.include({ currency: 'VND', pricePerGuestVnd: 1_650_000, serviceChargeVnd: 82_500, totalVnd: 1_871_100 });
  });
});
