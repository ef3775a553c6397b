import { expect } from 'chai';
import { unwrap, type VenueClient } from '../../sdk/index.ts';
import { startTestServer, SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { connectedApp, KEYS, openSection, typeInto, useSuperuserServer, type RenderedApp } from './helpers.ts';

const PASSWORDS = { admin: 'admin password 1', marketing: 'marketing password 1', staff: 'staff password 1' };

/** Seed and maintenance → the n-th entry (0 migrations, 1 seeder, 2 reset). */
async function openMaintenance(app: RenderedApp, entry: number, title: string) {
  await openSection(app, 'Seed and maintenance');
  await app.press(...Array<string>(entry).fill(KEYS.down), KEYS.enter);
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
    await openMaintenance(app, 0, 'Run migrations');
    const frame = await app.waitFor('Already up to date: nothing applied.');
    expect(current.length).to.be.greaterThan(0);
    expect(frame).to.contain(`Current (${current.length}):`);
    for (const name of current) expect(frame).to.contain(name);
  });

  it('runs the seeder: a blank password refuses to create that account, then the report', async () => {
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openMaintenance(app, 1, 'Run the seeder');
    await typeInto(app, PASSWORDS.admin, { masked: true });
    await app.press(KEYS.enter);
    await typeInto(app, PASSWORDS.marketing, { masked: true });
    await app.press(KEYS.enter, KEYS.enter);
    let frame = await app.waitFor('Password needed');
    expect(frame).to.match(/staff password\s+✖ required to create this account/);
    expect(frame).to.contain('The staff account does not exist yet');

    await typeInto(app, PASSWORDS.staff, { masked: true });
    await app.press(KEYS.enter);
    frame = await app.waitFor('Seeder report');
    expect(frame).to.match(/admin\s+existing\s+unchanged/);
    expect(frame).to.match(/marketing\s+existing\s+unchanged/);
    expect(frame).to.match(/staff\s+created\s+created/);
    expect(frame).not.to.contain(PASSWORDS.staff);
    const staff = unwrap(await sdk.GET('/api/sudo/users', { params: { query: { q: 'staff@' } } })).items;
    expect(staff).to.have.length(1);

    // Again, with no passwords at all: everything exists, nothing changes.
    await app.press(KEYS.escape);
    await app.waitFor('Run the seeder (admin');
    await app.press(KEYS.enter);
    await app.waitFor('staff password');
    await app.press(KEYS.enter, KEYS.enter, KEYS.enter);
    frame = await app.waitFor('Seeder report');
    for (const username of ['admin', 'marketing', 'staff']) expect(frame).to.match(new RegExp(`${username}\\s+existing\\s+unchanged`));
  });

  it('refuses the reset without the typed confirmation, sending nothing', async () => {
    unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'survivor@example.test', name: 'Survivor', password: 'correct horse battery' } }));
    const before = await accountCount(sdk);
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openMaintenance(app, 2, 'Reset the database');
    let frame = app.frame();
    expect(frame).to.contain('Type RESET DATABASE to confirm.');
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
      await openMaintenance(app, 2, 'Reset the database');
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
    it('resets the database with RESET DATABASE typed, outside production', async () => {
      unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'gone@example.test', name: 'Gone', password: 'correct horse battery' } }));
      const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
      await openMaintenance(app, 2, 'Reset the database');
      await typeInto(app, 'RESET DATABASE');
      await app.press(KEYS.enter);
      const frame = await app.waitFor('Database reset', 20_000);
      expect(frame).to.match(/Reset: \d+ migrations rolled back, \d+ applied again\./);
      expect(frame).to.contain('Run the seeder next.');
      expect(await accountCount(sdk)).to.equal(0);
    });
  });
});
