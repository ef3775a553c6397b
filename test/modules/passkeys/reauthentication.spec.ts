import { expect } from 'chai';
import { sha256Hex } from '../../../server/platform/auth/secrets.ts';
import { me, sessionTokenFrom, signInOrFail, sudo } from '../../helpers/accounts.ts';
import { buildMemberSession, DEFAULT_PASSWORD } from '../../helpers/factories.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';
import { SoftAuthenticator } from '../../helpers/softAuthenticator.ts';
import { beginRegistration, finishRegistration, ORIGIN, registerPasskey, RP_ID, signInWith, staffMember, WEBAUTHN } from './helpers.ts';

/**
 * Issue 32 §4.2: a bare session cookie added a passkey that survived a password reset. Adding a passkey now needs a
 * recent sign-in of the session (password or passkey, within 10 minutes: `sessions.authenticated_at`), and a
 * password reset or a ban (`PATCH /api/sudo/users/{userId}`) removes the account's passkeys.
 */
describe('passkeys: recent sign-in to add one; a reset or a ban removes them', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { webauthn: WEBAUTHN, signInMaxFailures: 1000, signInMaxFailuresPerAddress: 100_000 } });
  });
  after(() => server.close());

  describe('adding a passkey needs a recent sign-in (issue 32 §4.2)', () => {
    /** Makes the session's last sign-in `minutes` old (its cookie stays valid). */
    const signedInAgo = (token: string, minutes: number) =>
      server.db.knex('sessions').where({ token_hash: sha256Hex(token) }).update({ authenticated_at: new Date(Date.now() - minutes * 60_000) });

    it('records when a password or passkey sign-in authenticated the session', async () => {
      const before = Date.now();
      const { token } = await staffMember(server);
      const row = await server.db.knex('sessions').where({ token_hash: sha256Hex(token) }).first('authenticated_at', 'created_at');
      expect(new Date(row.authenticated_at).getTime()).to.be.within(before - 1000, Date.now() + 1000);
      const { authenticator } = await registerPasskey(server, token);
      await signedInAgo(token, 60);
      const { res } = await signInWith(server, authenticator);
      expect(res.status).to.equal(200);
      const byPasskey = await server.db.knex('sessions').where({ id: res.body.session.id }).first('authenticated_at');
      expect(new Date(byPasskey.authenticated_at).getTime()).to.be.within(before - 1000, Date.now() + 1000);
      // That session is recent: it adds a passkey.
      await registerPasskey(server, sessionTokenFrom(res)!);
    });

    it('refuses a session whose sign-in is older than 10 minutes (403 reauthentication_required) at both steps; a new sign-in may', async () => {
      const { account, token } = await staffMember(server);
      // Options asked while recent, finished after the sign-in aged: refused, nothing stored, the challenge kept.
      const begun = await beginRegistration(server, token);
      expect(begun.status).to.equal(200);
      await signedInAgo(token, 11);
      const authenticator = new SoftAuthenticator(ORIGIN, RP_ID);
      const credential = authenticator.register(begun.body);
      const late = await finishRegistration(server, token, credential);
      expect(late.status, late.text).to.equal(403);
      expect(late.body.code).to.equal('reauthentication_required');
      expect(late.body.detail).to.match(/sign in again/i);
      expect(await server.db.knex('passkeys').where({ account_id: account.id })).to.have.length(0);
      expect(await server.db.knex('webauthn_challenges').where({ challenge: begun.body.challenge })).to.have.length(1);
      const options = await beginRegistration(server, token);
      expect(options.status).to.equal(403);
      expect(options.body.code).to.equal('reauthentication_required');
      // The session itself still works for everything else.
      expect((await server.request('GET', '/api/auth/passkeys', { headers: cookieHeader(token) })).status).to.equal(200);
      expect((await me(server, token)).status).to.equal(200);

      // Signed in again (password): the ceremony begun before finishes, within 10 minutes of that sign-in.
      const again = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      const finished = await finishRegistration(server, again.token, credential);
      expect(finished.status, finished.text).to.equal(201);
      await signedInAgo(again.token, 9);
      expect((await beginRegistration(server, again.token)).status).to.equal(200);
    });

    it('a bare session cookie (a session row nobody signed in to lately) adds no passkey', async () => {
      const { account, token } = await buildMemberSession('admin');
      await signedInAgo(token, 24 * 60);
      const res = await beginRegistration(server, token);
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ code: 'reauthentication_required', status: 403 });
      expect(await server.db.knex('webauthn_challenges').where({ account_id: account.id })).to.have.length(0);
    });
  });

  describe('a password reset or a ban removes the account’s passkeys (issue 32 §4.2)', () => {
    it('a new password removes every passkey of the account (and only of it); they sign in no more', async () => {
      const { account, token } = await staffMember(server);
      const other = await staffMember(server);
      const first = await registerPasskey(server, token, {}, 'Key A');
      const second = await registerPasskey(server, token, {}, 'Key B');
      const others = await registerPasskey(server, other.token);
      // A change of name or role keeps them.
      expect((await sudo(server, 'PATCH', `/api/sudo/users/${account.id}`, { name: 'Renamed' })).status).to.equal(200);
      expect((await sudo(server, 'GET', `/api/sudo/users/${account.id}/passkeys`)).body.items).to.have.length(2);

      expect((await sudo(server, 'PATCH', `/api/sudo/users/${account.id}`, { password: 'a brand new password' })).status).to.equal(200);
      expect((await sudo(server, 'GET', `/api/sudo/users/${account.id}/passkeys`)).body.items).to.deep.equal([]);
      for (const { authenticator } of [first, second]) {
        const { res } = await signInWith(server, authenticator);
        expect(res.status).to.equal(401);
        expect(res.body.code).to.equal('passkey_not_recognized');
      }
      expect((await me(server, token)).status).to.equal(401);
      // Another account's passkey is untouched.
      expect((await signInWith(server, others.authenticator)).res.status).to.equal(200);
      // The new password signs in, and that session may add a passkey again.
      const { token: fresh } = await signInOrFail(server, account.email, 'a brand new password');
      await registerPasskey(server, fresh);
    });

    it('a ban removes them too, and lifting the ban does not bring them back', async () => {
      const { account, token } = await staffMember(server);
      const { authenticator } = await registerPasskey(server, token);
      expect((await sudo(server, 'PATCH', `/api/sudo/users/${account.id}`, { banned: true, banReason: 'stolen laptop' })).status).to.equal(200);
      expect(await server.db.knex('passkeys').where({ account_id: account.id })).to.have.length(0);
      expect((await signInWith(server, authenticator)).res.body.code).to.equal('passkey_not_recognized');
      expect((await sudo(server, 'PATCH', `/api/sudo/users/${account.id}`, { banned: false })).status).to.equal(200);
      expect((await signInWith(server, authenticator)).res.body.code).to.equal('passkey_not_recognized');
    });

    it('a passkey added from a stolen session does not survive the reset (the issue’s scenario)', async () => {
      const { account, token } = await staffMember(server);
      // Whoever holds the cookie right after the owner signed in adds their own passkey...
      const thief = await registerPasskey(server, token, {}, 'Not mine');
      // ...the owner notices, a superuser resets the password: the thief's way back in is gone.
      expect((await sudo(server, 'PATCH', `/api/sudo/users/${account.id}`, { password: 'reset by the superuser' })).status).to.equal(200);
      expect((await signInWith(server, thief.authenticator)).res.status).to.equal(401);
    });
  });
});
