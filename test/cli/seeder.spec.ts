import { expect } from 'chai';
import { countRows, me, signIn, signInOrFail, sudo } from '../helpers/accounts.ts';
import { buildAccount, canonicalOrganization } from '../helpers/factories.ts';
import { SUPERUSER_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { seed, SeedError, SEED_ACCOUNTS, type SeedPasswords } from '../../seed/index.ts';

const PASSWORDS: SeedPasswords = { admin: 'admin password 1', marketing: 'marketing password 1', staff: 'staff password 1' };

describe('cli: seeder', () => {
  let server: TestServer;
  // A fresh (emptied) database for every case: the seeder's behaviour depends on what already exists.
  beforeEach(async () => {
    server = await startTestServer({ config: { emailDomain: 'venue.test' } });
  });
  afterEach(() => server.close());

  const run = (passwords: SeedPasswords = PASSWORDS, superuserToken = SUPERUSER_TOKEN) =>
    seed({ baseUrl: server.baseUrl, superuserToken, passwords });

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
