import { expect } from 'chai';
import { countRows, errorPaths, me, meWithKey, signIn, signInOrFail, sudo } from '../../helpers/accounts.ts';
import {
  buildAccount,
  buildApiKey,
  buildMemberSession,
  buildMembership,
  buildOrganization,
  canonicalOrganization,
  DEFAULT_PASSWORD,
  permissionMap,
} from '../../helpers/factories.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';

const ACCOUNT_FIELDS = ['id', 'email', 'name', 'role', 'banned', 'banReason', 'banExpiresAt', 'createdAt', 'updatedAt'];
const inOneHour = () => new Date(Date.now() + 3600_000).toISOString();
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('accounts: /api/sudo/users', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { emailDomain: 'venue.test', signInMaxFailures: 1000 } });
  });
  after(() => server.close());

  const createUser = (body: Record<string, unknown>) => sudo(server, 'POST', '/api/sudo/users', body);
  const updateUser = (id: string, body: Record<string, unknown>) => sudo(server, 'PATCH', `/api/sudo/users/${id}`, body);

  describe('list', () => {
    it('pages newest first with limit, offset and the total', async () => {
      const created = [];
      for (let i = 0; i < 5; i++) created.push(await buildAccount({ name: `Pager ${i}`, email: `pager-${i}@example.test` }));
      // Creation times a second apart: rows made within one clock tick would tie (and ties go by id).
      for (const [i, account] of created.entries()) {
        await server.db.knex('accounts').where('id', account.id).update({ created_at: new Date(Date.now() - (created.length - i) * 1000) });
      }
      const newestFirst = created.map((a) => a.id).reverse();

      const first = await sudo(server, 'GET', '/api/sudo/users?q=pager-&limit=2&offset=0');
      expect(first.status).to.equal(200);
      expect(first.body).to.include({ total: 5, limit: 2, offset: 0 });
      expect(first.body.items.map((a: any) => a.id)).to.deep.equal(newestFirst.slice(0, 2));
      const second = await sudo(server, 'GET', '/api/sudo/users?q=pager-&limit=2&offset=2');
      expect(second.body.items.map((a: any) => a.id)).to.deep.equal(newestFirst.slice(2, 4));
      const last = await sudo(server, 'GET', '/api/sudo/users?q=pager-&limit=2&offset=4');
      expect(last.body).to.include({ total: 5, offset: 4 });
      expect(last.body.items.map((a: any) => a.id)).to.deep.equal(newestFirst.slice(4));
      const beyond = await sudo(server, 'GET', '/api/sudo/users?q=pager-&limit=2&offset=10');
      expect(beyond.body.items).to.deep.equal([]);
      expect(beyond.body.total).to.equal(5);
    });

    it('defaults to limit 20, offset 0 and counts every account', async () => {
      const res = await sudo(server, 'GET', '/api/sudo/users');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ limit: 20, offset: 0 });
      expect(res.body.total).to.equal(await countRows(server.db.knex, 'accounts'));
      expect(res.body.items.length).to.equal(Math.min(20, res.body.total));
    });

    it('searches e-mail and name case-insensitively', async () => {
      const byName = await buildAccount({ name: 'Zelda Quartzfield', email: 'zq1@example.test' });
      const byEmail = await buildAccount({ name: 'Someone Else', email: 'quartzfield.fan@example.test' });
      await buildAccount({ name: 'Unrelated', email: 'unrelated@example.test' });
      const res = await sudo(server, 'GET', '/api/sudo/users?q=QUARTZFIELD');
      expect(res.status).to.equal(200);
      expect(res.body.total).to.equal(2);
      expect(res.body.items.map((a: any) => a.id)).to.have.members([byName.id, byEmail.id]);
    });

    it('treats % and _ in the search as plain characters', async () => {
      const percent = await buildAccount({ name: '100% Percent', email: 'percent@example.test' });
      await buildAccount({ name: 'x_y underscore', email: 'xay@example.test' });
      const res = await sudo(server, 'GET', `/api/sudo/users?q=${encodeURIComponent('0%')}`);
      expect(res.body.items.map((a: any) => a.id)).to.deep.equal([percent.id]);
      const underscore = await sudo(server, 'GET', `/api/sudo/users?q=${encodeURIComponent('x_y')}`);
      expect(underscore.body.total).to.equal(1);
      const notWildcard = await sudo(server, 'GET', `/api/sudo/users?q=${encodeURIComponent('x_a')}`);
      expect(notWildcard.body.total).to.equal(0);
    });

    it('rejects a limit outside 1..100 and a negative offset with 400 naming the parameter', async () => {
      for (const [query, path] of [
        ['limit=0', 'query/limit'],
        ['limit=101', 'query/limit'],
        ['limit=ten', 'query/limit'],
        ['offset=-1', 'query/offset'],
      ]) {
        const res = await sudo(server, 'GET', `/api/sudo/users?${query}`);
        expect(res.status, query).to.equal(400);
        expect(errorPaths(res), query).to.include(path);
      }
    });

    it('is refused to an admin member session (403) and to a caller without credentials (401)', async () => {
      const { token } = await buildMemberSession('admin');
      const admin = await server.request('GET', '/api/sudo/users', { headers: cookieHeader(token) });
      expect(admin.status).to.equal(403);
      const anonymous = await server.request('GET', '/api/sudo/users');
      expect(anonymous.status).to.equal(401);
    });

    it('is open to an owner member session (role superuser)', async () => {
      const { token } = await buildMemberSession('owner');
      const res = await server.request('GET', '/api/sudo/users', { headers: cookieHeader(token) });
      expect(res.status).to.equal(200);
    });
  });

  describe('create', () => {
    it('creates an account from an e-mail (lower-cased), role USER by default, able to sign in', async () => {
      const res = await createUser({ email: 'New.Person@Example.TEST', name: 'New Person', password: 'a long password' });
      expect(res.status).to.equal(201);
      expect(Object.keys(res.body)).to.have.members(ACCOUNT_FIELDS);
      expect(res.body).to.include({ email: 'new.person@example.test', name: 'New Person', role: 'USER', banned: false, banReason: null, banExpiresAt: null });
      const row = await server.db.knex('accounts').where('id', res.body.id).first();
      expect(row.password_hash).to.be.a('string').and.not.contain('a long password');
      const { res: signedIn } = await signIn(server, 'new.person@example.test', 'a long password');
      expect(signedIn.status).to.equal(200);
      expect(signedIn.body.account.id).to.equal(res.body.id);
    });

    it('creates an account from a username as <username>@<EMAIL_DOMAIN>, with the role given', async () => {
      const res = await createUser({ username: 'night.manager', name: 'Night Manager', password: 'another password', role: 'SUPERUSER' });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ email: 'night.manager@venue.test', role: 'SUPERUSER' });
      const { res: signedIn } = await signIn(server, 'night.manager', 'another password');
      expect(signedIn.status).to.equal(200);
    });

    it('requires exactly one of email and username (400)', async () => {
      const neither = await createUser({ name: 'Nobody', password: 'a long password' });
      expect(neither.status).to.equal(400);
      expect(neither.body.code).to.equal('validation_failed');
      expect(neither.body.errors).to.have.length.greaterThan(0);
      const both = await createUser({ email: 'both@example.test', username: 'both', name: 'Both', password: 'a long password' });
      expect(both.status).to.equal(400);
      expect(await countRows(server.db.knex, 'accounts', { email: 'both@example.test' })).to.equal(0);
      expect(await countRows(server.db.knex, 'accounts', { email: 'both@venue.test' })).to.equal(0);
    });

    it('refuses a taken e-mail with 409 email_taken, also through a username or another letter case', async () => {
      const first = await createUser({ email: 'taken@venue.test', name: 'First', password: 'a long password' });
      expect(first.status).to.equal(201);
      for (const body of [
        { email: 'taken@venue.test' },
        { email: 'TAKEN@venue.test' },
        { username: 'taken' },
      ]) {
        const res = await createUser({ ...body, name: 'Second', password: 'a long password' });
        expect(res.status, JSON.stringify(body)).to.equal(409);
        expect(res.body.code).to.equal('email_taken');
      }
      expect(await countRows(server.db.knex, 'accounts', { email: 'taken@venue.test' })).to.equal(1);
    });

    it('rejects an account role outside the enum, a short password and a bad username with 400', async () => {
      const role = await createUser({ email: 'role@example.test', name: 'R', password: 'a long password', role: 'ADMIN' });
      expect(role.status).to.equal(400);
      expect(errorPaths(role)).to.include('body/role');
      const lower = await createUser({ email: 'role2@example.test', name: 'R', password: 'a long password', role: 'superuser' });
      expect(lower.status).to.equal(400);
      const password = await createUser({ email: 'pw@example.test', name: 'P', password: 'short' });
      expect(password.status).to.equal(400);
      expect(errorPaths(password)).to.include('body/password');
      const username = await createUser({ username: 'Has Spaces', name: 'U', password: 'a long password' });
      expect(username.status).to.equal(400);
      expect(errorPaths(username)).to.include('body/username');
      expect(await countRows(server.db.knex, 'accounts', { email: 'role@example.test' })).to.equal(0);
    });
  });

  describe('get', () => {
    it('returns the account with its memberships', async () => {
      const other = await buildOrganization({ name: 'Annex' });
      const account = await buildAccount();
      await buildMembership(account, 'member');
      await buildMembership(account, 'admin', other);
      const res = await sudo(server, 'GET', `/api/sudo/users/${account.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: account.id, email: account.email });
      expect(res.body.memberships.map((m: any) => [m.organization.id, m.role])).to.have.deep.members([
        [(await canonicalOrganization()).id, 'member'],
        [other.id, 'admin'],
      ]);
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      const missing = await sudo(server, 'GET', `/api/sudo/users/${MISSING_ID}`);
      expect(missing.status).to.equal(404);
      const malformed = await sudo(server, 'GET', '/api/sudo/users/not-a-uuid');
      expect(malformed.status).to.equal(400);
      expect(errorPaths(malformed)).to.include('path/userId');
    });
  });

  describe('update', () => {
    it('changes the name, e-mail and account role', async () => {
      const account = await buildAccount({ email: 'before@example.test' });
      const res = await updateUser(account.id, { name: 'Renamed', email: 'After@Example.test', role: 'SUPERUSER' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: account.id, name: 'Renamed', email: 'after@example.test', role: 'SUPERUSER' });
      expect(new Date(res.body.updatedAt).getTime()).to.be.at.least(new Date(res.body.createdAt).getTime());
      const fetched = await sudo(server, 'GET', `/api/sudo/users/${account.id}`);
      expect(fetched.body).to.include({ name: 'Renamed', email: 'after@example.test', role: 'SUPERUSER' });
      expect((await signIn(server, 'after@example.test', DEFAULT_PASSWORD)).res.status).to.equal(200);
      expect((await signIn(server, 'before@example.test', DEFAULT_PASSWORD)).res.status).to.equal(401);
    });

    it('changes the password and ends the open sessions', async () => {
      const account = await buildAccount();
      await buildMembership(account, 'admin');
      const { token } = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      const res = await updateUser(account.id, { password: 'a brand new password' });
      expect(res.status).to.equal(200);
      expect((await me(server, token)).status).to.equal(401);
      expect(await countRows(server.db.knex, 'sessions', { account_id: account.id })).to.equal(0);
      expect((await signIn(server, account.email, DEFAULT_PASSWORD)).res.status).to.equal(401);
      expect((await signIn(server, account.email, 'a brand new password')).res.status).to.equal(200);
    });

    it('refuses an e-mail another account has with 409 email_taken', async () => {
      const taken = await buildAccount();
      const account = await buildAccount();
      const res = await updateUser(account.id, { email: taken.email });
      expect(res.status).to.equal(409);
      expect(res.body.code).to.equal('email_taken');
      const fetched = await sudo(server, 'GET', `/api/sudo/users/${account.id}`);
      expect(fetched.body.email).to.equal(account.email);
    });

    it('rejects an account role outside the enum, an empty body and unknown fields with 400', async () => {
      const account = await buildAccount();
      const role = await updateUser(account.id, { role: 'OWNER' });
      expect(role.status).to.equal(400);
      expect(errorPaths(role)).to.include('body/role');
      expect((await updateUser(account.id, {})).status).to.equal(400);
      const unknown = await updateUser(account.id, { passwordHash: 'x' });
      expect(unknown.status).to.equal(400);
      expect(errorPaths(unknown)).to.include('body/passwordHash');
      const fetched = await sudo(server, 'GET', `/api/sudo/users/${account.id}`);
      expect(fetched.body.role).to.equal('USER');
    });

    it('answers 404 for an unknown account', async () => {
      expect((await updateUser(MISSING_ID, { name: 'Ghost' })).status).to.equal(404);
    });

    it('bans with a reason and an expiry: the sessions end and sign-in is refused', async () => {
      const account = await buildAccount();
      await buildMembership(account, 'admin');
      const { token } = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      expect((await me(server, token)).status).to.equal(200);
      const expires = inOneHour();

      const res = await updateUser(account.id, { banned: true, banReason: 'abuse', banExpiresAt: expires });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ banned: true, banReason: 'abuse' });
      expect(new Date(res.body.banExpiresAt).getTime()).to.equal(new Date(expires).getTime());

      expect((await me(server, token)).status).to.equal(401);
      expect(await countRows(server.db.knex, 'sessions', { account_id: account.id })).to.equal(0);
      const refused = await signIn(server, account.email, DEFAULT_PASSWORD);
      expect(refused.res.status).to.equal(403);
      expect(refused.res.body.code).to.equal('account_banned');
    });

    it('bans without an expiry until lifted; unbanning clears the reason and lets the account in', async () => {
      const account = await buildAccount();
      await buildMembership(account, 'member');
      const banned = await updateUser(account.id, { banned: true, banReason: 'paused' });
      expect(banned.body).to.include({ banned: true, banReason: 'paused', banExpiresAt: null });
      expect((await signIn(server, account.email, DEFAULT_PASSWORD)).res.status).to.equal(403);

      const lifted = await updateUser(account.id, { banned: false });
      expect(lifted.status).to.equal(200);
      expect(lifted.body).to.include({ banned: false, banReason: null, banExpiresAt: null });
      const { token } = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      expect((await me(server, token)).status).to.equal(200);
    });

    it('a new ban after an expired one is in force, without the old expiry', async () => {
      const account = await buildAccount();
      await updateUser(account.id, { banned: true, banReason: 'first', banExpiresAt: inOneHour() });
      // Let the first ban run out.
      await server.db.knex('accounts').where('id', account.id).update({ ban_expires_at: new Date(Date.now() - 60_000) });
      const expired = await sudo(server, 'GET', `/api/sudo/users/${account.id}`);
      expect(expired.body.banned).to.equal(false);
      expect((await signIn(server, account.email, DEFAULT_PASSWORD)).res.status).to.equal(200);

      const again = await updateUser(account.id, { banned: true });
      expect(again.status).to.equal(200);
      expect(again.body.banned).to.equal(true);
      expect(again.body.banExpiresAt).to.equal(null);
      const refused = await signIn(server, account.email, DEFAULT_PASSWORD);
      expect(refused.res.status).to.equal(403);
      expect(refused.res.body.code).to.equal('account_banned');
    });

    it('changes the reason of a ban in force without lifting it', async () => {
      const account = await buildAccount();
      await updateUser(account.id, { banned: true, banReason: 'first' });
      const res = await updateUser(account.id, { banReason: 'second' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ banned: true, banReason: 'second' });
    });

    it('rejects ban fields without banned: true (400) and leaves the account unbanned', async () => {
      const account = await buildAccount();
      const reason = await updateUser(account.id, { banReason: 'why' });
      expect(reason.status).to.equal(400);
      expect(errorPaths(reason)).to.include('body/banReason');
      const expiry = await updateUser(account.id, { banned: false, banExpiresAt: inOneHour() });
      expect(expiry.status).to.equal(400);
      expect(errorPaths(expiry)).to.include('body/banExpiresAt');
      const fetched = await sudo(server, 'GET', `/api/sudo/users/${account.id}`);
      expect(fetched.body).to.include({ banned: false, banReason: null });
      expect((await signIn(server, account.email, DEFAULT_PASSWORD)).res.status).to.equal(200);
    });

    it('rejects a ban expiry in the past with 400', async () => {
      const account = await buildAccount();
      const res = await updateUser(account.id, { banned: true, banExpiresAt: new Date(Date.now() - 60_000).toISOString() });
      expect(res.status).to.equal(400);
      expect(errorPaths(res)).to.include('body/banExpiresAt');
      expect((await sudo(server, 'GET', `/api/sudo/users/${account.id}`)).body.banned).to.equal(false);
    });
  });

  describe('delete', () => {
    it('deletes the account with its sessions, memberships and API keys (204, then 404)', async () => {
      const account = await buildAccount({ role: 'SUPERUSER' });
      await buildMembership(account, 'admin');
      await buildMembership(account, 'member', await buildOrganization());
      const { token } = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      const { key } = await buildApiKey({ owner: account, permissions: permissionMap('auth:read') });
      expect((await meWithKey(server, key)).status).to.equal(200);

      const res = await sudo(server, 'DELETE', `/api/sudo/users/${account.id}`);
      expect(res.status).to.equal(204);
      expect(res.text).to.equal('');
      const knex = server.db.knex;
      expect(await countRows(knex, 'accounts', { id: account.id })).to.equal(0);
      expect(await countRows(knex, 'sessions', { account_id: account.id })).to.equal(0);
      expect(await countRows(knex, 'organization_members', { account_id: account.id })).to.equal(0);
      expect(await countRows(knex, 'api_keys', { account_id: account.id })).to.equal(0);
      expect((await me(server, token)).status).to.equal(401);
      expect((await meWithKey(server, key)).status).to.equal(401);

      expect((await sudo(server, 'GET', `/api/sudo/users/${account.id}`)).status).to.equal(404);
      expect((await sudo(server, 'DELETE', `/api/sudo/users/${account.id}`)).status).to.equal(404);
    });

    it('leaves other accounts alone', async () => {
      const keep = await buildAccount();
      await buildMembership(keep, 'member');
      const drop = await buildAccount();
      await buildMembership(drop, 'member');
      expect((await sudo(server, 'DELETE', `/api/sudo/users/${drop.id}`)).status).to.equal(204);
      expect(await countRows(server.db.knex, 'organization_members', { account_id: keep.id })).to.equal(1);
      expect((await sudo(server, 'GET', `/api/sudo/users/${keep.id}`)).status).to.equal(200);
    });

    it('refuses to delete the account of the calling session (409 cannot_delete_self)', async () => {
      const { account, token } = await buildMemberSession('owner');
      const res = await server.request('DELETE', `/api/sudo/users/${account.id}`, { headers: cookieHeader(token) });
      expect(res.status).to.equal(409);
      expect(res.body.code).to.equal('cannot_delete_self');
      expect(await countRows(server.db.knex, 'accounts', { id: account.id })).to.equal(1);
    });
  });
});
