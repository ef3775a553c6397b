import { expect } from 'chai';
import { unwrap, type VenueClient } from '../../sdk/index.ts';
import { startTestServer, SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { local } from '../modules/catalog/helpers.ts';
import { buildEvent, ON_SALE } from '../modules/showEvents/factories.ts';
import { buildShow } from '../modules/shows/factories.ts';
import { DEMO_WEEKS, seed } from '../../seed/index.ts';
import { choose, connectedApp, KEYS, openSection, typeInto, useSuperuserServer, type RenderedApp } from './helpers.ts';

const PASSWORDS = { admin: 'admin password 1', marketing: 'marketing password 1', staff: 'staff password 1' };

/** Seed and maintenance → the entry whose label starts with `label`, then waits for `title`. */
async function openMaintenance(app: RenderedApp, label: string, title: string) {
  await openSection(app, 'Seed and maintenance');
  await choose(app, label);
  await app.waitFor(title);
}

async function accountCount(sdk: VenueClient) {
  return unwrap(await sdk.GET('/api/sudo/users')).total;
}

describe('tui: seed and maintenance', () => {
  let server: TestServer;
  let sdk: VenueClient;
  useSuperuserServer((s, c) => ([server, sdk] = [s, c]));

  it('runs the migrations and shows what was applied and what is current', async () => {
    const { current } = unwrap(await sdk.POST('/api/sudo/run-migrations'));
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openMaintenance(app, 'Run migrations', 'Run migrations');
    const frame = await app.waitFor('Already up to date: nothing applied.');
    expect(current.length).to.be.greaterThan(0);
    expect(frame).to.contain(`Current (${current.length}):`);
    for (const name of current) expect(frame).to.contain(name);
  });

  it('runs the seeder: a blank password refuses to create that account, then the report', async () => {
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openMaintenance(app, 'Run the seeder', 'Run the seeder');
    await typeInto(app, PASSWORDS.admin, { masked: true });
    await app.press(KEYS.enter);
    await typeInto(app, PASSWORDS.marketing, { masked: true });
    await app.press(KEYS.enter, KEYS.enter);
    let frame = await app.waitFor('Password needed');
    expect(frame).to.match(/staff password\s+✖ required to create this account/);
    expect(frame).to.contain('The staff account does not exist yet');

    await typeInto(app, PASSWORDS.staff, { masked: true });
    const start = app.frames.length;
    await app.press(KEYS.enter);
    frame = await app.waitFor('Seeder report', 20_000);
    // Progress per step while it ran: a step done with its counts while a later one still runs.
    const during = app.framesSince(start);
    expect(during.some((f) => /✔ accounts: 1 created, 0 updated, 2 unchanged/.test(f) && /· events/.test(f)), during.join('\n----\n')).to.equal(true);
    expect(during.some((f) => /✔ tables: 20 created, 0 updated, 0 unchanged/.test(f))).to.equal(true);
    // The summary table: resource, created, updated, unchanged.
    expect(frame).to.match(/RESOURCE\s+CREATED\s+UPDATED\s+UNCHANGED/);
    expect(frame).to.match(/shows\s+3\s+0\s+0/);
    expect(frame).to.match(/tables\s+20\s+0\s+0/);
    expect(frame).to.match(/events\s+\d+\s+0\s+0/);
    expect(frame).to.contain('Seeded: the counts above');
    for (const line of frame.split('\n')) expect([...line].length, line).to.be.at.most(100);
    expect(frame).to.match(/admin\s+existing\s+unchanged/);
    expect(frame).to.match(/marketing\s+existing\s+unchanged/);
    expect(frame).to.match(/staff\s+created\s+created/);
    expect(frame).not.to.contain(PASSWORDS.staff);
    const staff = unwrap(await sdk.GET('/api/sudo/users', { params: { query: { q: 'staff@' } } })).items;
    expect(staff).to.have.length(1);

    // Again, with no passwords at all: everything exists, nothing changes.
    await app.press(KEYS.escape);
    await app.waitFor('Run the seeder (accounts');
    await app.press(KEYS.enter);
    await app.waitFor('staff password');
    await app.press(KEYS.enter, KEYS.enter, KEYS.enter);
    frame = await app.waitFor('Seeder report', 20_000);
    for (const username of ['admin', 'marketing', 'staff']) expect(frame).to.match(new RegExp(`${username}\\s+existing\\s+unchanged`));
    expect(frame).to.contain('Nothing changed: everything was already seeded.');
    expect(frame).to.match(/shows\s+0\s+0\s+3/);
    expect(frame).to.match(/tables\s+0\s+0\s+20/);
  });

  it('fits the seeder report in 80×24', async () => {
    // Whatever ran before: the accounts exist, so blank passwords will do.
    await seed({ client: sdk, passwords: PASSWORDS, catalog: 'never' });
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, {}, { columns: 80 });
    await openMaintenance(app, 'Run the seeder', 'Run the seeder');
    await app.press(KEYS.enter, KEYS.enter, KEYS.enter);
    const frame = await app.waitFor('Seeder report', 20_000);
    const lines = frame.split('\n');
    for (const line of lines) expect([...line].length, line).to.be.at.most(80);
    expect(lines.length, frame).to.be.at.most(24);
    expect(frame).to.match(/fulfillment items\s+0\s+0\s+8/);
    expect(frame).to.match(new RegExp(`Events: \\d{4}-\\d\\d-\\d\\d to \\d{4}-\\d\\d-\\d\\d`));
    expect(DEMO_WEEKS).to.equal(8);
  });

  it('backfills event slugs: a dry-run preview first (nothing written), enter applies, then nothing to change', async () => {
    const knex = server.db.knex;
    const show = await buildShow({ status: 'PUBLISHED', slug: 'slug-show', code: 'SLG' });
    const missing = await buildEvent(show, { ...ON_SALE, startsAt: local('2027-03-05', '19:30'), slug: null });
    const malformed = await buildEvent(show, { ...ON_SALE, startsAt: local('2027-03-06', '19:30'), slug: 'SLG 6/3' });
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, {}, { columns: 80 });
    await openMaintenance(app, 'Backfill event slugs', 'Backfill event slugs');
    let frame = await app.waitFor(/Dry run: 2 of \d+ events would get a new slug/);
    expect(frame).to.match(/EVENT\s+FROM\s+TO/);
    expect(frame).to.match(new RegExp(`${missing.id.slice(0, 8)}\\s+\\(none\\)\\s+slug-show-2027-03-05-1930`));
    expect(frame).to.match(new RegExp(`${malformed.id.slice(0, 8)}\\s+SLG 6/3\\s+slug-show-2027-03-06-1930`));
    for (const line of frame.split('\n')) expect([...line].length, line).to.be.at.most(80);
    // The preview wrote nothing.
    expect((await knex('show_events').where({ id: missing.id }).first()).slug).to.equal(null);

    await app.press(KEYS.enter);
    frame = await app.waitFor('Event slugs backfilled');
    expect(frame).to.match(/2 of \d+ events got their slug/);
    expect((await knex('show_events').where({ id: missing.id }).first()).slug).to.equal('slug-show-2027-03-05-1930');
    expect((await knex('show_events').where({ id: malformed.id }).first()).slug).to.equal('slug-show-2027-03-06-1930');

    await app.press(KEYS.escape);
    await app.waitFor('Backfill event slugs');
    await app.press(KEYS.enter);
    frame = await app.waitFor(/Nothing to change: all \d+ events have their canonical slug/);
    expect(frame).not.to.contain('Press enter to apply');
  });

  it('refuses the reset without the typed confirmation, sending nothing', async () => {
    unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'survivor@example.test', name: 'Survivor', password: 'correct horse battery' } }));
    const before = await accountCount(sdk);
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openMaintenance(app, 'Reset the database', 'Reset the database');
    let frame = app.frame();
    expect(frame).to.contain('Type RESET DATABASE to confirm.');
    // It says what goes: the bookings and payments too, not only the accounts.
    expect(frame).to.contain('every table is emptied');
    expect(frame).to.match(/• accounts, sessions, organizations, memberships and API keys/);
    expect(frame).to.match(/• bookings \(reservations\), holds, check-ins, payments and refunds/);
    expect(frame).to.match(/• customers, leads/);
    await app.press(KEYS.enter);
    frame = await app.waitFor('Not confirmed');
    await typeInto(app, 'reset database');
    await app.press(KEYS.enter);
    frame = await app.waitFor(/Confirmation\s+reset database\s+✖ type RESET DATABASE/);
    expect(frame).to.contain('Nothing was sent');
    expect(frame).not.to.contain('The server refused');
    expect(await accountCount(sdk)).to.equal(before);
    expect(before).to.be.greaterThan(0);
  });

  describe('in production', () => {
    let production: TestServer;
    before(async () => {
      production = await startTestServer({ config: { nodeEnv: 'production' } });
    });
    after(() => production.close());

    it('shows the server refusing the reset (403 reset_refused) as such, and the data stays', async () => {
      const client = production.client({ superuserToken: SUPERUSER_TOKEN });
      unwrap(await client.POST('/api/sudo/users', { body: { email: 'kept@example.test', name: 'Kept', password: 'correct horse battery' } }));
      const app = await connectedApp(production.baseUrl, SUPERUSER_TOKEN);
      await openMaintenance(app, 'Reset the database', 'Reset the database');
      await typeInto(app, 'RESET DATABASE');
      await app.press(KEYS.enter);
      const frame = await app.waitFor('The server refused the reset:');
      expect(frame).to.contain('✖ Forbidden');
      expect(frame).to.contain('ALLOW_DATABASE_RESET');
      expect(frame).to.contain('403 · reset_refused');
      expect(await accountCount(client)).to.equal(1);
    });
  });

  // Destroys every row of the shared test database: mocha runs a suite's own tests before its nested suites, so
  // this one is nested and last (each spec file's server empties the database anyway).
  describe('reset, allowed (destroys all data: keep last)', () => {
    it('resets the database with RESET DATABASE typed, outside production @db', async () => {
      unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'gone@example.test', name: 'Gone', password: 'correct horse battery' } }));
      const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
      await openMaintenance(app, 'Reset the database', 'Reset the database');
      await typeInto(app, 'RESET DATABASE');
      await app.press(KEYS.enter);
      const frame = await app.waitFor('Database reset', 20_000);
      expect(frame).to.match(/Reset: \d+ migrations rolled back, \d+ applied again\./);
      expect(frame).to.contain('Run the seeder next.');
      expect(await accountCount(sdk)).to.equal(0);
    });
  });
});
