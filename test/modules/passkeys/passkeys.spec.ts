import { expect } from 'chai';
import { me, sessionSetCookie, sessionTokenFrom, signInOrFail, sudo } from '../../helpers/accounts.ts';
import { buildAccount, buildMembership, DEFAULT_PASSWORD } from '../../helpers/factories.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';
import { SoftAuthenticator, strangerKey } from '../../helpers/softAuthenticator.ts';
import {
  beginRegistration,
  beginSignIn,
  finishRegistration,
  finishSignIn,
  ORIGIN,
  registerPasskey,
  RP_ID,
  signInWith,
  staffMember,
  WEBAUTHN,
} from './helpers.ts';

/**
 * Passkeys (issue 23 §5, spec §2.2) against a software authenticator (test/helpers/softAuthenticator.ts): real
 * ES256 keys, `none` attestation and signed assertions, bent where a server must refuse them. Tagged @db: the
 * counter's compare-and-store and the challenge's single use are settled by the database.
 */
describe('passkeys: WebAuthn registration and sign-in @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { webauthn: WEBAUTHN, signInMaxFailures: 1000, signInMaxFailuresPerAddress: 100_000 } });
  });
  after(() => server.close());

  describe('registration (signed in)', () => {
    it('gives creation options bound to the account, then registers the passkey and lists it', async () => {
      const { account, token } = await staffMember(server);
      const begun = await beginRegistration(server, token);
      expect(begun.status).to.equal(200);
      expect(begun.body.rp).to.deep.equal({ name: 'Test venue', id: RP_ID });
      expect(begun.body.user.name).to.equal(account.email);
      expect(Buffer.from(begun.body.user.id, 'base64url').toString('hex')).to.equal(account.id.replace(/-/g, ''));
      expect(begun.body.authenticatorSelection).to.include({ residentKey: 'required', userVerification: 'required' });
      expect(begun.body.timeout).to.equal(300_000);
      const stored = await server.db.knex('webauthn_challenges').where({ challenge: begun.body.challenge });
      expect(stored).to.have.length(1);
      expect(stored[0]).to.include({ ceremony: 'registration', account_id: account.id });

      const authenticator = new SoftAuthenticator(ORIGIN, RP_ID, { backedUp: true });
      const res = await finishRegistration(server, token, authenticator.register(begun.body), 'Laptop');
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ label: 'Laptop', deviceType: 'multiDevice', backedUp: true, lastUsedAt: null });
      expect(res.body.transports).to.deep.equal(['internal']);
      expect(res.text).not.to.contain(authenticator.id);

      const row = await server.db.knex('passkeys').where({ id: res.body.id }).first();
      expect(row).to.include({ account_id: account.id, credential_id: authenticator.id });
      expect(await server.db.knex('webauthn_challenges').where({ challenge: begun.body.challenge })).to.have.length(0);

      const list = await server.request('GET', '/api/auth/passkeys', { headers: cookieHeader(token) });
      expect(list.status).to.equal(200);
      expect(list.body.items.map((p: { id: string }) => p.id)).to.deep.equal([res.body.id]);

      // The next options exclude it, so an authenticator holding it is not registered twice.
      const again = await beginRegistration(server, token);
      expect(again.body.excludeCredentials.map((c: { id: string }) => c.id)).to.deep.equal([authenticator.id]);
    });

    it('names a passkey without a label "Passkey <n>"', async () => {
      const { token } = await staffMember(server);
      expect((await registerPasskey(server, token)).passkey.label).to.equal('Passkey 1');
      expect((await registerPasskey(server, token)).passkey.label).to.equal('Passkey 2');
    });

    it('refuses a challenge used once already, even by a failed attempt', async () => {
      const { token } = await staffMember(server);
      const begun = await beginRegistration(server, token);
      const authenticator = new SoftAuthenticator(ORIGIN, RP_ID);
      const wrongOrigin = await finishRegistration(server, token, authenticator.register(begun.body, { origin: 'http://localhost:6666' }));
      expect(wrongOrigin.status).to.equal(400);
      expect(wrongOrigin.body.code).to.equal('passkey_verification_failed');
      const retry = await finishRegistration(server, token, authenticator.register(begun.body));
      expect(retry.status).to.equal(400);
      expect(retry.body.code).to.equal('passkey_challenge_invalid');
      expect(await server.db.knex('passkeys').where({ credential_id: authenticator.id })).to.have.length(0);
    });

    it("refuses another account's challenge, a challenge never given, and a sign-in challenge", async () => {
      const alice = await staffMember(server);
      const bob = await staffMember(server);
      const aliceOptions = (await beginRegistration(server, alice.token)).body;
      const stolen = await finishRegistration(server, bob.token, new SoftAuthenticator(ORIGIN, RP_ID).register(aliceOptions));
      expect(stolen.status).to.equal(400);
      expect(stolen.body.code).to.equal('passkey_challenge_invalid');

      const invented = await finishRegistration(server, bob.token, new SoftAuthenticator(ORIGIN, RP_ID).register({ ...aliceOptions, challenge: Buffer.from('never given').toString('base64url') }));
      expect(invented.body.code).to.equal('passkey_challenge_invalid');

      const signInOptions = (await beginSignIn(server)).body;
      const crossed = await finishRegistration(server, bob.token, new SoftAuthenticator(ORIGIN, RP_ID).register({ challenge: signInOptions.challenge, user: aliceOptions.user }));
      expect(crossed.body.code).to.equal('passkey_challenge_invalid');
    });

    it('refuses an expired challenge', async () => {
      const { token } = await staffMember(server);
      const begun = await beginRegistration(server, token);
      await server.db.knex('webauthn_challenges').where({ challenge: begun.body.challenge }).update({ expires_at: new Date(Date.now() - 1000) });
      const res = await finishRegistration(server, token, new SoftAuthenticator(ORIGIN, RP_ID).register(begun.body));
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'passkey_challenge_invalid' });
      expect(res.body.detail).to.match(/expired/);
    });

    it('refuses a wrong RP ID and a response without user verification', async () => {
      const { token } = await staffMember(server);
      for (const overrides of [{ rpId: 'evil.example' }, { userVerified: false }]) {
        const begun = await beginRegistration(server, token);
        const res = await finishRegistration(server, token, new SoftAuthenticator(ORIGIN, RP_ID).register(begun.body, overrides));
        expect(res.status, JSON.stringify(overrides)).to.equal(400);
        expect(res.body.code).to.equal('passkey_verification_failed');
      }
    });

    it('answers 409 for a credential registered already, and 400 for unreadable client data', async () => {
      const { token } = await staffMember(server);
      const { authenticator } = await registerPasskey(server, token);
      const begun = await beginRegistration(server, token);
      const duplicate = await finishRegistration(server, token, authenticator.register(begun.body));
      expect(duplicate.status).to.equal(409);
      expect(duplicate.body.code).to.equal('passkey_already_registered');

      const garbled = authenticator.register((await beginRegistration(server, token)).body);
      garbled.response.clientDataJSON = Buffer.from('not json').toString('base64url');
      const malformed = await finishRegistration(server, token, garbled);
      expect(malformed.status).to.equal(400);
      expect(malformed.body.code).to.equal('passkey_response_malformed');

      const wrongType = authenticator.register((await beginRegistration(server, token)).body, { type: 'webauthn.get' });
      expect((await finishRegistration(server, token, wrongType)).body.code).to.equal('passkey_response_malformed');
    });

    it('validates the body (400) and needs a session (401)', async () => {
      const { token } = await staffMember(server);
      const bad = await server.request('POST', '/api/auth/passkeys', { headers: cookieHeader(token), body: { credential: { id: 'x' } } });
      expect(bad.status).to.equal(400);
      expect(bad.body.code).to.equal('validation_failed');
      const anonymous = await server.request('POST', '/api/auth/passkeys/registration-options');
      expect(anonymous.status).to.equal(401);
      // A superuser token is no dashboard session: it has no account to register a passkey for.
      const token401 = await sudo(server, 'POST', '/api/auth/passkeys/registration-options');
      expect(token401.status).to.equal(401);
    });
  });

  describe('sign-in', () => {
    it('signs in to a session exactly like a password sign-in, and the session works', async () => {
      const { account, token } = await staffMember(server, 'admin');
      const { authenticator, passkey } = await registerPasskey(server, token);

      const begun = await beginSignIn(server);
      expect(begun.status).to.equal(200);
      expect(begun.body).to.include({ rpId: RP_ID, userVerification: 'required', timeout: 300_000 });
      expect(begun.body.allowCredentials).to.deep.equal([]);
      const res = await finishSignIn(server, authenticator.assert(begun.body), { 'user-agent': 'passkey-spec' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ authSource: 'session', role: 'admin' });
      expect(res.body.account).to.include({ id: account.id, email: account.email });
      const cookie = sessionSetCookie(res)!;
      expect(cookie).to.match(/;\s*httponly/i);
      expect(cookie).to.match(/;\s*samesite=lax/i);
      const newToken = sessionTokenFrom(res)!;
      expect(newToken).to.not.equal(token);

      const principal = await me(server, newToken);
      expect(principal.status).to.equal(200);
      expect(principal.body.account.id).to.equal(account.id);
      const session = await server.db.knex('sessions').where({ id: res.body.session.id }).first();
      expect(session).to.include({ account_id: account.id, user_agent: 'passkey-spec' });

      const row = await server.db.knex('passkeys').where({ id: passkey.id }).first();
      expect(Number(row.counter)).to.equal(authenticator.counter).and.to.be.above(0);
      const listed = await server.request('GET', '/api/auth/passkeys', { headers: cookieHeader(newToken) });
      expect(listed.body.items[0].lastUsedAt).to.be.a('string');
    });

    it('refuses a replayed response: its challenge was used', async () => {
      const { token } = await staffMember(server);
      const { authenticator } = await registerPasskey(server, token);
      const { res, credential } = await signInWith(server, authenticator);
      expect(res.status).to.equal(200);
      const replay = await finishSignIn(server, credential);
      expect(replay.status).to.equal(400);
      expect(replay.body.code).to.equal('passkey_challenge_invalid');
      expect(sessionSetCookie(replay)).to.equal(undefined);
    });

    it('refuses a challenge never given, a registration challenge, and an expired one', async () => {
      const { token } = await staffMember(server);
      const { authenticator } = await registerPasskey(server, token);
      const invented = await finishSignIn(server, authenticator.assert({ challenge: Buffer.from('made up').toString('base64url') }));
      expect(invented.status).to.equal(400);
      expect(invented.body.code).to.equal('passkey_challenge_invalid');

      const registration = (await beginRegistration(server, token)).body;
      const crossed = await finishSignIn(server, authenticator.assert(registration));
      expect(crossed.body.code).to.equal('passkey_challenge_invalid');

      const begun = await beginSignIn(server);
      await server.db.knex('webauthn_challenges').where({ challenge: begun.body.challenge }).update({ expires_at: new Date(Date.now() - 1) });
      const expired = await finishSignIn(server, authenticator.assert(begun.body));
      expect(expired.status).to.equal(400);
      expect(expired.body.code).to.equal('passkey_challenge_invalid');
      expect(expired.body.detail).to.match(/expired/);
    });

    it('refuses a signature counter that does not advance (a cloned authenticator), and keeps the stored one', async () => {
      const { token } = await staffMember(server);
      const { authenticator, passkey } = await registerPasskey(server, token);
      expect((await signInWith(server, authenticator, { counter: 10 })).res.status).to.equal(200);
      for (const counter of [10, 3]) {
        const { res } = await signInWith(server, authenticator, { counter });
        expect(res.status, `counter ${counter}`).to.equal(401);
        expect(res.body.code).to.equal('passkey_counter_regressed');
        expect(sessionSetCookie(res)).to.equal(undefined);
      }
      const row = await server.db.knex('passkeys').where({ id: passkey.id }).first();
      expect(Number(row.counter)).to.equal(10);
      expect((await signInWith(server, authenticator, { counter: 11 })).res.status).to.equal(200);
    });

    it('lets one of two simultaneous assertions with the same counter through, never both', async () => {
      const { token } = await staffMember(server);
      const { authenticator } = await registerPasskey(server, token);
      const [a, b] = await Promise.all([beginSignIn(server), beginSignIn(server)]);
      const first = authenticator.assert(a.body, { counter: 7 });
      const second = authenticator.assert(b.body, { counter: 7 });
      const results = await Promise.all([finishSignIn(server, first), finishSignIn(server, second)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 401]);
      expect(results.find((r) => r.status === 401)!.body.code).to.equal('passkey_counter_regressed');
    });

    it('accepts an authenticator that keeps no counter (always 0)', async () => {
      const { token } = await staffMember(server);
      const { authenticator } = await registerPasskey(server, token, { counterStep: 0 });
      expect((await signInWith(server, authenticator)).res.status).to.equal(200);
      expect((await signInWith(server, authenticator)).res.status).to.equal(200);
      expect(authenticator.counter).to.equal(0);
    });

    it('refuses a bad signature, a wrong origin, a wrong RP ID, no user verification and a foreign user handle', async () => {
      const { token } = await staffMember(server);
      const other = await staffMember(server);
      const { authenticator } = await registerPasskey(server, token);
      const otherHandle = Buffer.from(other.account.id.replace(/-/g, ''), 'hex').toString('base64url');
      const bent = [
        { signWith: strangerKey() },
        { origin: 'http://localhost:6666' },
        { rpId: 'evil.example' },
        { userVerified: false },
        { userHandle: otherHandle },
      ];
      for (const overrides of bent) {
        const { res } = await signInWith(server, authenticator, overrides);
        expect(res.status, Object.keys(overrides)[0]).to.equal(401);
        expect(res.body.code).to.equal('passkey_not_recognized');
        expect(sessionSetCookie(res)).to.equal(undefined);
      }
      // Without a user handle (a non-discoverable response) the credential alone names the account.
      expect((await signInWith(server, authenticator, { userHandle: null })).res.status).to.equal(200);
    });

    it('refuses a banned account (403) and lets it in once the ban is lifted', async () => {
      // Issue 32 §4.2: a ban through the API removes the account's passkeys (below); an account banned with its
      // passkeys still there (a ban from before that, or one written by hand) is refused by the ban itself.
      const { account, token } = await staffMember(server);
      const { authenticator } = await registerPasskey(server, token);
      await server.db.knex('accounts').where({ id: account.id }).update({ banned: true, ban_reason: 'test' });
      const { res } = await signInWith(server, authenticator);
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('account_banned');
      expect(sessionSetCookie(res)).to.equal(undefined);
      expect((await sudo(server, 'PATCH', `/api/sudo/users/${account.id}`, { banned: false })).status).to.equal(200);
      expect((await signInWith(server, authenticator)).res.status).to.equal(200);
    });

    it('refuses a removed passkey, and a passkey of a deleted account', async () => {
      const { account, token } = await staffMember(server);
      const { authenticator, passkey } = await registerPasskey(server, token);
      const removed = await server.request('DELETE', `/api/auth/passkeys/${passkey.id}`, { headers: cookieHeader(token) });
      expect(removed.status).to.equal(204);
      const { res } = await signInWith(server, authenticator);
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('passkey_not_recognized');

      const again = await registerPasskey(server, token);
      expect((await sudo(server, 'DELETE', `/api/sudo/users/${account.id}`)).status).to.equal(204);
      expect(await server.db.knex('passkeys').where({ account_id: account.id })).to.have.length(0);
      const afterDeletion = await signInWith(server, again.authenticator);
      expect(afterDeletion.res.status).to.equal(401);
      expect(afterDeletion.res.body.code).to.equal('passkey_not_recognized');
    });

    it('answers 400 for unreadable client data and for a body that is no credential', async () => {
      const begun = await beginSignIn(server);
      const credential = new SoftAuthenticator(ORIGIN, RP_ID).assert(begun.body);
      credential.response.clientDataJSON = '';
      const malformed = await finishSignIn(server, credential);
      expect(malformed.status).to.equal(400);
      expect(malformed.body.code).to.equal('passkey_response_malformed');
      const invalid = await server.request('POST', '/api/auth/passkey-sign-in', { body: { credential: { id: 'a', rawId: 'a', type: 'password' } } });
      expect(invalid.status).to.equal(400);
      expect(invalid.body.code).to.equal('validation_failed');
    });
  });

  describe('own passkeys: list, rename, remove', () => {
    it("renames and removes one's own passkeys; another account's is 404", async () => {
      const alice = await staffMember(server);
      const bob = await staffMember(server);
      const { passkey } = await registerPasskey(server, alice.token, {}, 'Phone');
      const renamed = await server.request('PATCH', `/api/auth/passkeys/${passkey.id}`, { headers: cookieHeader(alice.token), body: { label: '  Work phone ' } });
      expect(renamed.status).to.equal(200);
      expect(renamed.body.label).to.equal('Work phone');

      const bobRename = await server.request('PATCH', `/api/auth/passkeys/${passkey.id}`, { headers: cookieHeader(bob.token), body: { label: 'Mine' } });
      expect(bobRename.status).to.equal(404);
      const bobDelete = await server.request('DELETE', `/api/auth/passkeys/${passkey.id}`, { headers: cookieHeader(bob.token) });
      expect(bobDelete.status).to.equal(404);
      const bobList = await server.request('GET', '/api/auth/passkeys', { headers: cookieHeader(bob.token) });
      expect(bobList.body.items).to.deep.equal([]);

      const blank = await server.request('PATCH', `/api/auth/passkeys/${passkey.id}`, { headers: cookieHeader(alice.token), body: { label: '   ' } });
      expect(blank.status).to.equal(400);

      expect((await server.request('DELETE', `/api/auth/passkeys/${passkey.id}`, { headers: cookieHeader(alice.token) })).status).to.equal(204);
      expect((await server.request('DELETE', `/api/auth/passkeys/${passkey.id}`, { headers: cookieHeader(alice.token) })).status).to.equal(404);
    });
  });

  describe('superuser: list and revoke an account’s passkeys', () => {
    it('lists them and revokes one, which then signs in no more', async () => {
      const { account, token } = await staffMember(server);
      const first = await registerPasskey(server, token, {}, 'Key A');
      const second = await registerPasskey(server, token, {}, 'Key B');
      const list = await sudo(server, 'GET', `/api/sudo/users/${account.id}/passkeys`);
      expect(list.status).to.equal(200);
      expect(list.body.items.map((p: { label: string }) => p.label)).to.deep.equal(['Key A', 'Key B']);

      expect((await sudo(server, 'DELETE', `/api/sudo/users/${account.id}/passkeys/${first.passkey.id}`)).status).to.equal(204);
      expect((await signInWith(server, first.authenticator)).res.body.code).to.equal('passkey_not_recognized');
      expect((await signInWith(server, second.authenticator)).res.status).to.equal(200);
    });

    it("answers 404 for an unknown account and for another account's passkey", async () => {
      const alice = await staffMember(server);
      const bob = await buildAccount();
      const { passkey } = await registerPasskey(server, alice.token);
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await sudo(server, 'GET', `/api/sudo/users/${unknown}/passkeys`)).status).to.equal(404);
      expect((await sudo(server, 'DELETE', `/api/sudo/users/${unknown}/passkeys/${passkey.id}`)).status).to.equal(404);
      expect((await sudo(server, 'DELETE', `/api/sudo/users/${bob.id}/passkeys/${passkey.id}`)).status).to.equal(404);
      expect(await server.db.knex('passkeys').where({ id: passkey.id })).to.have.length(1);
    });

    it('is refused to staff and admins (403), open to an owner session (superuser), with a bad id 400', async () => {
      for (const role of ['member', 'admin'] as const) {
        const caller = await staffMember(server, role);
        const res = await server.request('GET', `/api/sudo/users/${caller.account.id}/passkeys`, { headers: cookieHeader(caller.token) });
        expect(res.status, role).to.equal(403);
        const revoke = await server.request('DELETE', `/api/sudo/users/${caller.account.id}/passkeys/00000000-0000-4000-8000-000000000000`, { headers: cookieHeader(caller.token) });
        expect(revoke.status, role).to.equal(403);
      }
      const owner = await staffMember(server, 'owner');
      expect((await server.request('GET', `/api/sudo/users/${owner.account.id}/passkeys`, { headers: cookieHeader(owner.token) })).status).to.equal(200);
      expect((await sudo(server, 'GET', '/api/sudo/users/not-a-uuid/passkeys')).status).to.equal(400);
    });
  });

  describe('throttling', () => {
    it('counts passkey sign-ins with the password sign-in throttle (429 with Retry-After)', async () => {
      const throttled = await startTestServer({ config: { webauthn: WEBAUTHN, signInMaxFailures: 2 } });
      try {
        const account = await buildAccount();
        await buildMembership(account, 'member');
        const { token } = await signInOrFail(throttled, account.email, DEFAULT_PASSWORD);
        const { authenticator } = await registerPasskey(throttled, token);
        for (let i = 0; i < 2; i += 1) expect((await signInWith(throttled, authenticator, { signWith: strangerKey() })).res.status).to.equal(401);
        const { res } = await signInWith(throttled, authenticator);
        expect(res.status).to.equal(429);
        expect(res.headers.get('retry-after')).to.match(/^\d+$/);
      } finally {
        await throttled.close();
      }
    });

    it('limits sign-in challenges per address (30 a minute)', async () => {
      const limited = await startTestServer({ config: { webauthn: WEBAUTHN } });
      try {
        for (let i = 0; i < 30; i += 1) expect((await beginSignIn(limited)).status).to.equal(200);
        const res = await limited.request('POST', '/api/auth/passkey-sign-in/options');
        expect(res.status).to.equal(429);
        expect(res.headers.get('retry-after')).to.match(/^\d+$/);
        expect(res.body.code).to.equal('too_many_requests');
      } finally {
        await limited.close();
      }
    });
  });
});

describe('passkeys: the relying party from the configuration', () => {
  it('derives origins and RP ID from DASHBOARD_ORIGINS, leaving out a derived origin on another host; refuses a listed one', async () => {
    const { loadConfig, ConfigError } = await import('../../../server/platform/config.ts');
    const derived = loadConfig({ DASHBOARD_ORIGINS: 'https://dash.venue.example, http://localhost:5173' }).webauthn;
    expect(derived).to.include({ rpId: 'dash.venue.example' });
    expect(derived.origins).to.deep.equal(['https://dash.venue.example']);
    const explicit = loadConfig({ WEBAUTHN_RP_ID: 'venue.example', WEBAUTHN_ORIGINS: 'https://dash.venue.example, https://door.venue.example' }).webauthn;
    expect(explicit.origins).to.deep.equal(['https://dash.venue.example', 'https://door.venue.example']);
    expect(() => loadConfig({ WEBAUTHN_RP_ID: 'venue.example', WEBAUTHN_ORIGINS: 'https://dash.venue.example, http://localhost:5173' })).to.throw(ConfigError, /localhost:5173 is not on WEBAUTHN_RP_ID/);
    expect(() => loadConfig({ WEBAUTHN_RP_ID: 'venue.example', DASHBOARD_ORIGINS: 'http://localhost:5173' })).to.throw(ConfigError, /no WebAuthn origin/);
  });
});
