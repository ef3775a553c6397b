import { expect } from 'chai';
import { freshDatabase, msUntil, startServerProcess, type ServerProcess } from '../helpers/twoProcesses.ts';

const TOKEN = 'revocation-test-superuser-token-0123456789';
/** The feature's promise: every process refuses a revoked credential within 1 s. */
const WITHIN_MS = 1_000;

/**
 * Revocation at once, everywhere (issue 25 §3), and the catalog kept in memory across processes (§7): two server
 * processes on one PostgreSQL database, each remembering API keys for a minute (API_KEY_CACHE_MS) and catalog
 * answers until a write. A change made through one process is refused or seen by the other within 1 s (the
 * invalidation channel: PostgreSQL LISTEN/NOTIFY on `venue_invalidate`). Needs DATABASE_URL (skipped without).
 */
describe('two server processes: revocation and the catalog reach every process within 1 s @db', function () {
  this.timeout(120_000);
  let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  const delays: Record<string, number> = {};

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    database = await freshDatabase('venue_revoke');
    const env = { SUPERUSER_API_TOKENS: TOKEN, API_KEY_CACHE_MS: '60000' };
    [a, b] = await Promise.all([startServerProcess(database.url, env), startServerProcess(database.url, env)]);
  });

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    if (Object.keys(delays).length) console.log(`      delays until the other process saw the change (ms): ${JSON.stringify(delays)}`);
  });

  async function call(server: ServerProcess, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
  }
  const sudo = async (server: ServerProcess, method: string, path: string, body?: unknown) => {
    const res = await call(server, method, path, { body, headers: { 'x-api-token': TOKEN } });
    expect(res.status, `${method} ${path}: ${res.text}`).to.be.oneOf([200, 201, 204]);
    return res.body;
  };
  let n = 0;
  const superuser = async () =>
    (await sudo(a!, 'POST', '/api/sudo/users', { email: `owner${++n}@example.com`, name: `Owner ${n}`, password: 'a long enough password 1', role: 'SUPERUSER' })).id as string;
  const apiKey = async (userId: string) => {
    const created = await sudo(a!, 'POST', '/api/sudo/api-keys', { name: `key ${++n}`, userId, permissions: { shows: ['read'] } });
    return { id: created.apiKey.id as string, key: created.key as string };
  };
  const meWithKey = (server: ServerProcess, key: string) => call(server, 'GET', '/api/auth/me', { headers: { 'x-api-key': key } });

  /** Both processes accept (and so remember) the key; `revoke` through one; the other refuses within 1 s. */
  async function revokedEverywhere(name: string, key: string, revoke: () => Promise<unknown>, other: () => ServerProcess) {
    for (const server of [a!, b!]) for (let i = 0; i < 2; i++) expect((await meWithKey(server, key)).status).to.equal(200);
    await revoke();
    const ms = await msUntil(async () => (await meWithKey(other(), key)).status === 401, WITHIN_MS);
    expect(ms, `${name}: the other process still accepted the key after ${WITHIN_MS} ms`).to.not.equal(undefined);
    delays[name] = Math.round(ms!);
  }

  it('a disabled API key', async () => {
    const key = await apiKey(await superuser());
    await revokedEverywhere('key disabled', key.key, () => sudo(a!, 'PATCH', `/api/sudo/api-keys/${key.id}`, { enabled: false }), () => b!);
  });

  it('a deleted API key', async () => {
    const key = await apiKey(await superuser());
    await revokedEverywhere('key deleted', key.key, () => sudo(b!, 'DELETE', `/api/sudo/api-keys/${key.id}`), () => a!);
  });

  it('an account banned, demoted, deleted: its keys', async () => {
    const banned = await superuser();
    const bannedKey = await apiKey(banned);
    await revokedEverywhere('owner banned', bannedKey.key, () => sudo(a!, 'PATCH', `/api/sudo/users/${banned}`, { banned: true }), () => b!);
    const demoted = await superuser();
    const demotedKey = await apiKey(demoted);
    await revokedEverywhere('owner demoted to USER', demotedKey.key, () => sudo(a!, 'PATCH', `/api/sudo/users/${demoted}`, { role: 'USER' }), () => b!);
    const deleted = await superuser();
    const deletedKey = await apiKey(deleted);
    await revokedEverywhere('owner deleted', deletedKey.key, () => sudo(b!, 'DELETE', `/api/sudo/users/${deleted}`), () => a!);
  });

  it('a session: signed out, its account banned, its role changed', async () => {
    const password = 'another long password 2';
    const staffer = (await sudo(a!, 'POST', '/api/sudo/users', { email: `staffer${++n}@example.com`, name: 'Staffer', password })).id as string;
    await sudo(a!, 'POST', '/api/sudo/ensure-organization-member', { userId: staffer, role: 'admin' });
    const signIn = async () => {
      const res = await call(a!, 'POST', '/api/auth/sign-in', { body: { identifier: `staffer${n}@example.com`, password } });
      expect(res.status, res.text).to.equal(200);
      return { cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
    };
    const me = (server: ServerProcess, session: { cookie: string }) => call(server, 'GET', '/api/auth/me', { headers: session });

    // Signed out through one process: the other refuses the cookie.
    const first = await signIn();
    expect((await me(b!, first)).body.role).to.equal('admin');
    expect((await call(a!, 'POST', '/api/auth/sign-out', { headers: first })).status).to.be.oneOf([200, 204]);
    let ms = await msUntil(async () => (await me(b!, first)).status === 401, WITHIN_MS);
    expect(ms, 'signed-out session still accepted').to.not.equal(undefined);
    delays['session signed out'] = Math.round(ms!);

    // Its membership's role changed through one process: the other answers the new role.
    const second = await signIn();
    expect((await me(b!, second)).body.role).to.equal('admin');
    await sudo(a!, 'POST', '/api/sudo/ensure-organization-member', { userId: staffer, role: 'member' });
    ms = await msUntil(async () => (await me(b!, second)).body?.role === 'staff', WITHIN_MS);
    expect(ms, 'the old role was still answered').to.not.equal(undefined);
    delays['session role changed'] = Math.round(ms!);

    // Its account banned through one process: the other refuses the cookie.
    expect((await me(b!, second)).status).to.equal(200);
    await sudo(a!, 'PATCH', `/api/sudo/users/${staffer}`, { banned: true });
    ms = await msUntil(async () => (await me(b!, second)).status === 401, WITHIN_MS);
    expect(ms, 'a banned account’s session still accepted').to.not.equal(undefined);
    delays['session account banned'] = Math.round(ms!);
  });

  it('the public catalog: a hold placed through one process is seen by the other’s kept answer', async () => {
    const show = await sudo(a!, 'POST', '/api/shows', { code: 'TWO', slug: 'two-processes', title: { en: 'Two processes', vi: 'Hai tiến trình' }, durationMinutes: 60 });
    await sudo(a!, 'POST', `/api/shows/${show.id}/publish`);
    const startsAt = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const event = await sudo(a!, 'POST', '/api/show-events', { showId: show.id, startsAt, capacity: 40, salesOpen: true });
    const offer = await sudo(a!, 'POST', '/api/offers', { code: 'TWO-DINNER', showId: show.id, name: { en: 'Dinner', vi: 'Bữa tối' }, bookingPath: 'DINNER_SHOW', experienceType: 'STANDARD', pricePerGuestVnd: 1_000_000, minGuests: 1, maxGuests: 10 });
    const path = `/api/public/show-events/${event.slug}`;
    const seatsLeft = async (server: ServerProcess) => (await call(server, 'GET', path)).body.seatsLeft as number;
    expect(await seatsLeft(b!)).to.equal(40);
    expect(await seatsLeft(b!)).to.equal(40); // kept by b
    const held = await call(a!, 'POST', '/api/public/reservations', {
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 6, contact: { name: 'Guest', email: 'guest@example.com', phone: '+84 90 123 4567', locale: 'vi' } },
    });
    expect(held.status, held.text).to.equal(201);
    const ms = await msUntil(async () => (await seatsLeft(b!)) === 34, WITHIN_MS);
    expect(ms, 'the other process still answered the seats before the hold').to.not.equal(undefined);
    delays['catalog after a hold'] = Math.round(ms!);
    // A catalog write through b reaches a's kept answer too.
    expect((await call(a!, 'GET', path)).body.show.durationMinutes).to.equal(60);
    await sudo(b!, 'PATCH', `/api/shows/${show.id}`, { durationMinutes: 75 });
    const back = await msUntil(async () => (await call(a!, 'GET', path)).body.show.durationMinutes === 75, WITHIN_MS);
    expect(back, 'the other process still answered the old show').to.not.equal(undefined);
    delays['catalog after a show change'] = Math.round(back!);
  });
});
