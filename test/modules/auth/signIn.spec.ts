import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { countRows, me, sessionSetCookie, sessionTokenFrom, signIn, signInOrFail } from '../../helpers/accounts.ts';
import { buildAccount, buildMembership, buildOrganization, DEFAULT_PASSWORD } from '../../helpers/factories.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';

const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

describe('accounts: sign-in and sign-out', () => {
  let server: TestServer;
  before(async () => {
    // A custom e-mail domain proves usernames are mapped with config.emailDomain, not a constant. The failure
    // limit is raised so the wrong-password cases here never trip the throttle (tested on its own below).
    server = await startTestServer({ config: { emailDomain: 'club.example', signInMaxFailures: 1000 } });
  });
  after(() => server.close());

  describe('POST /api/auth/sign-in', () => {
    it('signs in with an e-mail address and sets an HttpOnly, SameSite=Lax session cookie', async () => {
      const account = await buildAccount({ email: 'ana@example.test' });
      await buildMembership(account, 'admin');
      const { res, token } = await signIn(server, 'ana@example.test', DEFAULT_PASSWORD);
      expect(res.status).to.equal(200);
      expect(res.body.authSource).to.equal('session');
      expect(res.body.role).to.equal('admin');
      expect(res.body.account).to.include({ id: account.id, email: 'ana@example.test', role: 'USER' });
      expect(res.body.session.id).to.be.a('string');
      expect(res.body.permissions).to.deep.equal([]);

      const cookie = sessionSetCookie(res)!;
      expect(cookie, 'Set-Cookie venue_session').to.be.a('string');
      expect(cookie).to.match(/;\s*httponly/i);
      expect(cookie).to.match(/;\s*samesite=lax/i);
      expect(cookie).to.match(/;\s*path=\//i);
      expect(Buffer.from(token!, 'base64url').length, 'token entropy in bytes').to.be.at.least(32);

      // The cookie works on its own.
      const principal = await me(server, token!);
      expect(principal.status).to.equal(200);
      expect(principal.body.account.id).to.equal(account.id);
    });

    it('stores only the SHA-256 hash of the session token', async () => {
      const account = await buildAccount();
      await buildMembership(account, 'member');
      const { token } = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      const rows = await server.db.knex('sessions').where('account_id', account.id);
      expect(rows).to.have.length(1);
      expect(rows[0].token_hash).to.equal(sha256Hex(token));
      expect(JSON.stringify(rows[0])).not.to.contain(token);
    });

    it('matches the e-mail case-insensitively and ignores surrounding spaces', async () => {
      const account = await buildAccount({ email: 'mixed.case@example.test' });
      await buildMembership(account, 'member');
      const { res } = await signIn(server, '  Mixed.Case@EXAMPLE.test ', DEFAULT_PASSWORD);
      expect(res.status).to.equal(200);
      expect(res.body.account.id).to.equal(account.id);
    });

    it('maps a bare username to <username>@<EMAIL_DOMAIN>', async () => {
      const account = await buildAccount({ email: 'alice@club.example' });
      await buildMembership(account, 'member');
      const { res, token } = await signIn(server, 'alice', DEFAULT_PASSWORD);
      expect(res.status).to.equal(200);
      expect(res.body.account).to.include({ id: account.id, email: 'alice@club.example' });
      expect(res.body.role).to.equal('staff');
      expect(token).to.be.a('string');
    });

    it('does not map a username to any other domain', async () => {
      await buildAccount({ email: 'bruno@venue.local' });
      const { res } = await signIn(server, 'bruno', DEFAULT_PASSWORD);
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('invalid_credentials');
    });

    it("makes the account's first membership the session's active organization", async () => {
      const account = await buildAccount();
      const first = await buildOrganization({ name: 'First Org' });
      await buildMembership(account, 'member', first);
      await buildMembership(account, 'admin'); // canonical, joined later
      const { res, token } = await signIn(server, account.email, DEFAULT_PASSWORD);
      expect(res.status).to.equal(200);
      expect(res.body.activeOrganization).to.deep.equal({ id: first.id, name: 'First Org', slug: first.slug, memberRole: 'member' });
      // The role follows that membership (member → staff), not the later admin one.
      expect(res.body.role).to.equal('staff');
      expect(res.body.memberships).to.have.length(2);
      const [row] = await server.db.knex('sessions').where('token_hash', sha256Hex(token!));
      expect(row.active_organization_id).to.equal(first.id);
    });

    it('signs in an account without memberships to a session that resolves as public', async () => {
      const account = await buildAccount();
      const { res, token } = await signIn(server, account.email, DEFAULT_PASSWORD);
      expect(res.status).to.equal(200);
      expect(res.body.role).to.equal('public');
      expect(res.body.activeOrganization).to.equal(null);
      const [row] = await server.db.knex('sessions').where('token_hash', sha256Hex(token!));
      expect(row.active_organization_id).to.equal(null);
      const principal = await me(server, token!);
      expect(principal.status).to.equal(401);
    });

    it('never uses the account role as the request role', async () => {
      const account = await buildAccount({ role: 'SUPERUSER' });
      await buildMembership(account, 'member');
      const { res } = await signIn(server, account.email, DEFAULT_PASSWORD);
      expect(res.status).to.equal(200);
      expect(res.body.account.role).to.equal('SUPERUSER');
      expect(res.body.role).to.equal('staff');
    });

    it('refuses a wrong password with 401 invalid_credentials and opens no session', async () => {
      const account = await buildAccount();
      await buildMembership(account, 'admin');
      const { res, token } = await signIn(server, account.email, 'not the password');
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('invalid_credentials');
      expect(token).to.equal(undefined);
      expect(await countRows(server.db.knex, 'sessions', { account_id: account.id })).to.equal(0);
    });

    it('refuses an unknown account exactly like a wrong password', async () => {
      const account = await buildAccount();
      const wrong = await signIn(server, account.email, 'not the password');
      const unknown = await signIn(server, 'nobody-here@example.test', DEFAULT_PASSWORD);
      expect(unknown.res.status).to.equal(401);
      expect(unknown.res.body.code).to.equal('invalid_credentials');
      expect(unknown.token).to.equal(undefined);
      const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
      expect(strip(unknown.res.body)).to.deep.equal(strip(wrong.res.body));
    });

    it('refuses a banned account with 403 account_banned and opens no session', async () => {
      const account = await buildAccount({ banned: true });
      await buildMembership(account, 'admin');
      const { res, token } = await signIn(server, account.email, DEFAULT_PASSWORD);
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('account_banned');
      expect(token).to.equal(undefined);
      expect(await countRows(server.db.knex, 'sessions', { account_id: account.id })).to.equal(0);
    });

    it('refuses an account whose ban has not yet expired', async () => {
      const account = await buildAccount({ banned: true, banExpiresAt: new Date(Date.now() + 3600_000) });
      const { res } = await signIn(server, account.email, DEFAULT_PASSWORD);
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('account_banned');
    });

    it('lets an account whose ban has expired sign in', async () => {
      const account = await buildAccount({ banned: true, banExpiresAt: new Date(Date.now() - 60_000) });
      await buildMembership(account, 'member');
      const { res, token } = await signIn(server, account.email, DEFAULT_PASSWORD);
      expect(res.status).to.equal(200);
      expect((await me(server, token!)).status).to.equal(200);
    });

    it("sweeps the account's expired sessions, and only those, when it signs in", async () => {
      const account = await buildAccount();
      await buildMembership(account, 'member');
      const other = await buildAccount();
      const expired = { expires_at: new Date(Date.now() - 1000) };
      for (const owner of [account, other]) {
        await server.db.knex('sessions').insert({ token_hash: sha256Hex(`old-${owner.id}`), account_id: owner.id, ...expired });
      }
      const live = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      expect(await countRows(server.db.knex, 'sessions', { account_id: account.id })).to.equal(2);
      expect(await countRows(server.db.knex, 'sessions', { account_id: other.id }), "another account's expired session").to.equal(1);
      expect((await me(server, live.token)).status).to.equal(200);
    });

    it('rejects a body without a password with 400 naming the field', async () => {
      const res = await server.request('POST', '/api/auth/sign-in', { body: { identifier: 'someone' } });
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.include('body/password');
    });
  });

  describe('POST /api/auth/sign-out', () => {
    it('deletes the session so the cookie stops working, and clears the cookie', async () => {
      const account = await buildAccount();
      await buildMembership(account, 'admin');
      const { token } = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      expect((await me(server, token)).status).to.equal(200);

      const res = await server.request('POST', '/api/auth/sign-out', { headers: cookieHeader(token) });
      expect(res.status).to.equal(204);
      expect(await countRows(server.db.knex, 'sessions', { token_hash: sha256Hex(token) })).to.equal(0);
      const cleared = sessionSetCookie(res);
      expect(cleared, 'a clearing Set-Cookie').to.be.a('string');
      expect(sessionTokenFrom(res) ?? '').to.equal('');

      const after = await me(server, token);
      expect(after.status).to.equal(401);
    });

    it('ends only the session it is called with', async () => {
      const account = await buildAccount();
      await buildMembership(account, 'admin');
      const first = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      const second = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      expect(first.token).not.to.equal(second.token);
      expect((await server.request('POST', '/api/auth/sign-out', { headers: cookieHeader(first.token) })).status).to.equal(204);
      expect((await me(server, first.token)).status).to.equal(401);
      expect((await me(server, second.token)).status).to.equal(200);
    });

    it('is a 204 no-op without a session', async () => {
      const before = await countRows(server.db.knex, 'sessions');
      const none = await server.request('POST', '/api/auth/sign-out');
      expect(none.status).to.equal(204);
      const unknown = await server.request('POST', '/api/auth/sign-out', { headers: cookieHeader('not-a-session-token') });
      expect(unknown.status).to.equal(204);
      expect(await countRows(server.db.knex, 'sessions')).to.equal(before);
    });
  });
});

describe('accounts: sign-in throttling', () => {
  let server: TestServer;
  // trustProxy lets each case come from its own X-Forwarded-For address, so pairs and addresses can be
  // exercised separately. 3 consecutive failures per identifier + address, 6 per address.
  before(async () => {
    server = await startTestServer({
      config: { signInMaxFailures: 3, signInMaxFailuresPerAddress: 6, signInWindowSeconds: 600, trustProxy: true },
    });
  });
  after(() => server.close());

  const from = (address: string) => ({ 'x-forwarded-for': address });
  const attempt = (identifier: string, password: string, address: string) =>
    server.request('POST', '/api/auth/sign-in', { body: { identifier, password }, headers: from(address) });

  async function failTimes(identifier: string, address: string, times: number) {
    for (let i = 0; i < times; i++) {
      const res = await attempt(identifier, 'wrong password', address);
      expect(res.status, `failure ${i + 1}`).to.equal(401);
    }
  }

  it('answers 429 with Retry-After after the limit, and refuses the correct password too', async () => {
    const account = await buildAccount();
    await buildMembership(account, 'admin');
    await failTimes(account.email, '10.0.0.1', 3);

    const throttled = await attempt(account.email, 'wrong password', '10.0.0.1');
    expect(throttled.status).to.equal(429);
    expect(throttled.body.code).to.equal('too_many_requests');
    const retryAfter = Number(throttled.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, 600);

    const correct = await attempt(account.email, DEFAULT_PASSWORD, '10.0.0.1');
    expect(correct.status).to.equal(429);
    expect(sessionSetCookie(correct)).to.equal(undefined);
    expect(await countRows(server.db.knex, 'sessions', { account_id: account.id })).to.equal(0);
  });

  it('checks at most the limit of 60 concurrent wrong guesses; the rest are 429 before any password check @db', async () => {
    const account = await buildAccount();
    const statuses = await Promise.all(Array.from({ length: 60 }, () => attempt(account.email, 'wrong password', '10.0.6.1').then((res) => res.status)));
    // A 401 is a checked password; a 429 was refused before the check.
    expect(statuses.filter((status) => status === 401)).to.have.length(3);
    expect(statuses.filter((status) => status === 429)).to.have.length(57);
  });

  it('lets the owner sign in from another address while an account is hammered (the lock-out is per pair)', async () => {
    const account = await buildAccount();
    await buildMembership(account, 'member');
    await failTimes(account.email, '10.0.1.1', 3);
    expect((await attempt(account.email, DEFAULT_PASSWORD, '10.0.1.1')).status).to.equal(429);
    for (const address of ['10.0.1.2', '10.0.1.3']) await failTimes(account.email, address, 1);
    const owner = await attempt(account.email, DEFAULT_PASSWORD, '10.0.1.4');
    expect(owner.status).to.equal(200);
    // And the attacker's pair is still locked.
    expect((await attempt(account.email, DEFAULT_PASSWORD, '10.0.1.1')).status).to.equal(429);
  });

  it('throttles the username and the e-mail it stands for as one identifier', async () => {
    await buildAccount({ email: 'throttled@venue.local' });
    await failTimes('throttled', '10.0.2.1', 2);
    await failTimes('THROTTLED@venue.local', '10.0.2.1', 1);
    const res = await attempt('throttled', DEFAULT_PASSWORD, '10.0.2.1');
    expect(res.status).to.equal(429);
  });

  it('throttles an address that sprays many identifiers, past its own larger budget', async () => {
    for (const name of ['spray-a', 'spray-b', 'spray-c']) await failTimes(`${name}@example.test`, '10.0.3.1', 2);
    const victim = await buildAccount();
    const res = await attempt(victim.email, DEFAULT_PASSWORD, '10.0.3.1');
    expect(res.status).to.equal(429);
    // Another address is not affected.
    const elsewhere = await attempt(victim.email, DEFAULT_PASSWORD, '10.0.3.2');
    expect(elsewhere.status).to.equal(200);
  });

  it("resets only the pair that succeeded: an attacker's own account does not clear the address's failures", async () => {
    const own = await buildAccount();
    const victims = [await buildAccount(), await buildAccount(), await buildAccount()];
    // 2 failures on each victim (6 in all, the address budget), with a successful sign-in to the attacker's
    // own account in between: the successes never give the failures back.
    for (const victim of victims) {
      expect((await attempt(own.email, DEFAULT_PASSWORD, '10.0.7.1')).status).to.equal(200);
      await failTimes(victim.email, '10.0.7.1', 2);
    }
    expect((await attempt(victims[0].email, 'wrong password', '10.0.7.1')).status).to.equal(429);
    expect((await attempt(own.email, DEFAULT_PASSWORD, '10.0.7.1')).status).to.equal(429);
  });

  it('forgets earlier failures of the pair after a successful sign-in', async () => {
    const account = await buildAccount();
    await failTimes(account.email, '10.0.4.1', 2);
    expect((await attempt(account.email, DEFAULT_PASSWORD, '10.0.4.1')).status).to.equal(200);
    await failTimes(account.email, '10.0.4.1', 2);
    expect((await attempt(account.email, DEFAULT_PASSWORD, '10.0.4.1')).status).to.equal(200);
  });

  it('does not let successful sign-ins use up the address budget', async () => {
    const account = await buildAccount();
    for (let i = 0; i < 8; i++) expect((await attempt(account.email, DEFAULT_PASSWORD, '10.0.8.1')).status, `sign-in ${i + 1}`).to.equal(200);
  });

  it('counts attempts on an unknown account like any failure', async () => {
    await failTimes('ghost@example.test', '10.0.5.1', 3);
    expect((await attempt('ghost@example.test', 'whatever', '10.0.5.1')).status).to.equal(429);
  });

  it('treats the addresses of one IPv6 /64 as one address', async () => {
    for (const [index, name] of ['v6-a', 'v6-b', 'v6-c'].entries()) {
      await failTimes(`${name}@example.test`, `2001:db8:1:2::${index + 1}`, 2);
    }
    expect((await attempt('v6-d@example.test', 'whatever', '2001:db8:1:2:ffff::9')).status).to.equal(429);
    expect((await attempt('v6-d@example.test', 'whatever', '2001:db8:1:3::1')).status).to.equal(401);
  });
});

describe('accounts: sign-in throttle window', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { signInMaxFailures: 3, signInWindowSeconds: 60 } });
  });
  after(() => server.close());

  it('lets the account in again once the failures leave the window (Retry-After is truthful)', async () => {
    const account = await buildAccount();
    await buildMembership(account, 'member');
    for (let i = 0; i < 3; i++) expect((await signIn(server, account.email, 'wrong password')).res.status).to.equal(401);
    const throttled = await signIn(server, account.email, DEFAULT_PASSWORD);
    expect(throttled.res.status).to.equal(429);
    const retryAfter = Number(throttled.res.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, 60);
    // Both stores read the clock through Date.now (the PostgreSQL one stores epoch ms computed in JavaScript),
    // so moving it is enough to move past the window without sleeping through it.
    const realNow = Date.now;
    const skew = retryAfter * 1000 + 50;
    Date.now = () => realNow() + skew;
    try {
      const early = retryAfter * 1000 - 1500;
      if (early > 0) {
        Date.now = () => realNow() + early;
        expect((await signIn(server, account.email, DEFAULT_PASSWORD)).res.status, 'still inside the window').to.equal(429);
      }
      Date.now = () => realNow() + skew;
      const { res } = await signIn(server, account.email, DEFAULT_PASSWORD);
      expect(res.status).to.equal(200);
    } finally {
      Date.now = realNow;
    }
  });
});

describe('accounts: the session cookie’s policy (SESSION_COOKIE_SAMESITE, production)', () => {
  it('SameSite from the setting; None is always Secure; production cookies are Secure over plain HTTP too', async () => {
    const cases: Array<{ env: Record<string, string>; sameSite: RegExp; secure: boolean }> = [
      { env: {}, sameSite: /;\s*samesite=lax/i, secure: false },
      { env: { SESSION_COOKIE_SAMESITE: 'strict' }, sameSite: /;\s*samesite=strict/i, secure: false },
      { env: { SESSION_COOKIE_SAMESITE: 'none' }, sameSite: /;\s*samesite=none/i, secure: true },
    ];
    for (const { env, sameSite, secure } of cases) {
      const { loadConfig } = await import('../../../server/platform/config.ts');
      const server = await startTestServer({ config: { sessionCookie: loadConfig({ ...env, NODE_ENV: 'test' }).sessionCookie }, keepData: true });
      try {
        const account = await buildAccount();
        await buildMembership(account, 'admin');
        const { res, token } = await signIn(server, account.email, DEFAULT_PASSWORD);
        const cookie = sessionSetCookie(res)!;
        expect(cookie, JSON.stringify(env)).to.match(sameSite);
        expect(/;\s*secure(;|$)/i.test(cookie), `${JSON.stringify(env)}: ${cookie}`).to.equal(secure);
        const out = await server.request('POST', '/api/auth/sign-out', { headers: cookieHeader(token!) });
        const cleared = out.headers.getSetCookie().find((c) => c.startsWith('venue_session='))!;
        expect(cleared, 'the clearing cookie has the same attributes').to.match(sameSite);
        expect(/;\s*secure(;|$)/i.test(cleared)).to.equal(secure);
      } finally {
        await server.close();
      }
    }
    const { loadConfig } = await import('../../../server/platform/config.ts');
    expect(loadConfig({ NODE_ENV: 'production', SESSION_COOKIE_SAMESITE: 'lax', SEED_ADMIN_PASSWORD: 'x' }).sessionCookie).to.deep.equal({ sameSite: 'lax', alwaysSecure: true });
    expect(() => loadConfig({ SESSION_COOKIE_SAMESITE: 'sometimes' })).to.throw(/SESSION_COOKIE_SAMESITE must be one of lax, strict, none/);
    expect(() => loadConfig({ DASHBOARD_ORIGINS: 'https://dash.example/path' })).to.throw(/DASHBOARD_ORIGINS/);
    expect(() => loadConfig({ DASHBOARD_ORIGINS: '*' })).to.throw(/DASHBOARD_ORIGINS/);
    expect(loadConfig({ DASHBOARD_ORIGINS: 'https://dash.example, http://localhost:5173' }).dashboardOrigins).to.deep.equal(['https://dash.example', 'http://localhost:5173']);
  });
});
