import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { confirmReservation } from '../../../server/modules/booking/lifecycle.ts';
import { inTransition } from '../../../server/domain/unitOfWork.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';

/**
 * Guest profiles (issue 13): made with the reservation's token, each opened by its own token (read, update,
 * react during or after the show, rate-limited); staff floor lists by table, table assignment (nulled when the
 * table is deleted), soft delete that stops the token.
 */
describe('profiles: /api/profiles (guest and staff), the deprecated /api/public/profiles…, /api/guest-reactions', () => {
  const spec = catalogSpec({ config: { trustProxy: true } });
  const as = spec.as;
  const staff = () => as(spec.callers.staff);
  let ip = 1;
  const address = () => ({ 'x-forwarded-for': `100.80.${(ip >> 8) & 255}.${ip++ & 255}` });

  async function booking(guestCount = 2) {
    const target = await bookableEvent();
    const res = await as(address()).post('/api/public/reservations', { eventSlug: target.event.slug, offerCode: target.offer.code, guestCount, contact: contact(ip) });
    expect(res.status).to.equal(201);
    return { ...target, reference: res.body.reference as string, accessToken: res.body.accessToken as string };
  }
  const create = (b: { reference: string; accessToken: string }, body: Record<string, unknown> = {}, token = b.accessToken) =>
    as({ ...address(), 'x-reservation-token': token }).post('/api/profiles', { reservationReference: b.reference, displayName: 'Lan', ...body });
  const mine = (token: string) => as({ ...address(), 'x-profile-token': token });

  it('creates one profile per guest with the reservation token; the profile token (hashed at rest) opens exactly that profile', async () => {
    const b = await booking(2);
    expect((await create(b, {}, 'wrong-token-wrong-token-wrong')).status).to.equal(404);
    expect((await as(address()).post('/api/profiles', { reservationReference: b.reference, displayName: 'X' })).status).to.equal(404);
    const first = await create(b, { dietaryPreferences: ['VEGETARIAN', 'NUT_ALLERGY', 'VEGETARIAN'], dietaryNote: 'No peanuts' });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.headers.get('cache-control')).to.equal('no-store');
    expect(first.body).to.include({ displayName: 'Lan', reservationReference: b.reference, tableCode: null });
    expect(first.body.dietaryPreferences).to.deep.equal(['VEGETARIAN', 'NUT_ALLERGY']);
    const row = await spec.server.db.knex('guest_profiles').where({ id: first.body.id }).first();
    expect(Buffer.from(row.token_hash).equals(createHash('sha256').update(first.body.profileToken).digest())).to.equal(true);
    const second = await create(b, { displayName: 'Minh' });
    expect(second.status).to.equal(201);
    const full = await create(b, { displayName: 'Third' });
    expect(full.status).to.equal(409);
    expect(full.body.code).to.equal('party_full');

    const read = await mine(first.body.profileToken).get('/api/profiles/me');
    expect(read.body).to.include({ id: first.body.id, displayName: 'Lan' });
    expect(read.body).not.to.have.property('profileToken');
    expect((await mine(second.body.profileToken).get('/api/profiles/me')).body.id).to.equal(second.body.id);
    expect((await mine('x'.repeat(43)).get('/api/profiles/me')).status).to.equal(404);
    expect((await as(address()).get('/api/profiles/me')).status).to.equal(404);
    const updated = await mine(first.body.profileToken).patch('/api/profiles/me', { displayName: 'Lan N.', dietaryPreferences: ['VEGAN'] });
    expect(updated.body).to.include({ displayName: 'Lan N.', dietaryNote: 'No peanuts' });
    expect(updated.body.dietaryPreferences).to.deep.equal(['VEGAN']);
    expect((await mine(first.body.profileToken).patch('/api/profiles/me', { dietaryPreferences: ['CARNIVORE'] })).status).to.equal(400);
    expect((await mine(first.body.profileToken).patch('/api/profiles/me', {})).status).to.equal(400);

    // A cancelled reservation takes no new profile.
    const other = await booking(3);
    await spec.server.request('POST', `/api/public/reservations/${other.reference}/cancel`, { headers: { 'x-reservation-token': other.accessToken }, body: {} });
    expect((await create(other)).body.code).to.equal('reservation_not_active');
  });

  it('reactions: only from the doors on, from a fixed set, rate-limited; staff read them per event', async () => {
    const knex = spec.server.db.knex;
    const b = await booking(2);
    const { body: profile } = await create(b);
    const react = (body: Record<string, unknown>, headers = address()) => as({ ...headers, 'x-profile-token': profile.profileToken }).post('/api/profiles/me/reactions', body);
    expect((await react({ emoji: '👏' })).body.code).to.equal('show_not_started');
    await knex('show_events').where({ id: b.event.id }).update({ starts_at: new Date(Date.now() - 3_600_000), doors_at: null });
    // Still only HELD: not a confirmed guest yet.
    expect((await react({ emoji: '👏' })).body.code).to.equal('reservation_not_active');
    const id = (await knex('reservations').where({ reference: b.reference }).first('id')).id;
    await inTransition(spec.server.app.context, 'SYSTEM', (ctx) => confirmReservation(ctx, id, { by: 'STAFF' }));
    const ok = await react({ emoji: '👏', comment: '  Amazing finale!  ' });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    expect(ok.body).to.include({ emoji: '👏', comment: 'Amazing finale!', displayName: 'Lan', profileId: profile.id });
    expect((await react({ emoji: '🍕' })).status).to.equal(400);
    expect((await react({ emoji: '🔥', comment: 'x'.repeat(141) })).status).to.equal(400);
    expect((await as({ ...address(), 'x-profile-token': 'y'.repeat(43) }).post('/api/profiles/me/reactions', { emoji: '👏' })).status).to.equal(404);

    const listed = await staff().get(`/api/guest-reactions?eventId=${b.event.id}`);
    expect(listed.body.items.map((r: any) => [r.emoji, r.comment])).to.deep.equal([['👏', 'Amazing finale!']]);
    expect((await as({}).get(`/api/guest-reactions?eventId=${b.event.id}`)).status).to.equal(401);

    let last;
    for (let i = 0; i < 20; i++) last = await react({ emoji: '🎉' });
    expect(last!.status).to.equal(429);
    expect(Number(last!.headers.get('retry-after'))).to.be.greaterThan(0);
  });

  it('staff list profiles by table, assign tables (nulled when the table is deleted) and soft delete (the token stops working)', async () => {
    const knex = spec.server.db.knex;
    const b = await booking(3);
    const lan = (await create(b, { displayName: 'Lan', dietaryPreferences: ['HALAL'] })).body;
    const minh = (await create(b, { displayName: 'Minh' })).body;
    const [table] = await knex('venue_tables').insert({ code: 'A1', zone: 'VIP', seats: 4, sort_order: 1 }).returning('*');
    for (const [method, path] of [['get', `/api/profiles?eventId=${b.event.id}`], ['delete', `/api/profiles/${lan.id}`]] as const) {
      expect((await as({})[method](path)).status).to.equal(401);
    }
    expect((await as({}).patch(`/api/profiles/${lan.id}`, { tableId: table.id })).status).to.equal(401);
    expect((await as(await apiKeyWith('profiles:read')).patch(`/api/profiles/${lan.id}`, { tableId: table.id })).status).to.equal(403);
    expect((await staff().get('/api/profiles')).status).to.equal(400);

    const assigned = await staff().patch(`/api/profiles/${minh.id}`, { tableId: table.id });
    expect(assigned.body).to.include({ tableId: table.id, tableCode: 'A1' });
    expect((await staff().patch(`/api/profiles/${lan.id}`, { tableId: MISSING_ID })).body.code).to.equal('unknown_table');
    const floor = await staff().get(`/api/profiles?eventId=${b.event.id}`);
    expect(floor.body.items.map((p: any) => [p.displayName, p.tableCode, p.dietaryPreferences])).to.deep.equal([
      ['Minh', 'A1', []],
      ['Lan', null, ['HALAL']],
    ]);
    expect((await mine(minh.profileToken).get('/api/profiles/me')).body.tableCode).to.equal('A1');
    await knex('venue_tables').where({ id: table.id }).delete();
    expect((await staff().get(`/api/profiles?eventId=${b.event.id}`)).body.items[0].tableId).to.equal(null);

    expect((await staff().delete(`/api/profiles/${lan.id}`)).status).to.equal(204);
    expect((await staff().delete(`/api/profiles/${lan.id}`)).status).to.equal(204);
    expect((await mine(lan.profileToken).get('/api/profiles/me')).status).to.equal(404);
    expect((await mine(lan.profileToken).patch('/api/profiles/me', { displayName: 'Back' })).status).to.equal(404);
    expect((await staff().get(`/api/profiles?eventId=${b.event.id}`)).body.total).to.equal(1);
    const withDeleted = await staff().get(`/api/profiles?eventId=${b.event.id}&includeDeleted=true`);
    expect(withDeleted.body.items.find((p: any) => p.id === lan.id)).to.include({ isDeleted: true });
    expect((await staff().patch(`/api/profiles/${lan.id}`, { tableId: null })).body.code).to.equal('profile_deleted');
    expect((await staff().delete(`/api/profiles/${MISSING_ID}`)).status).to.equal(404);
    expect((await staff().patch(`/api/profiles/${MISSING_ID}`, { tableId: null })).status).to.equal(404);
    // A deleted profile frees its place in the party.
    expect((await create(b, { displayName: 'Third' })).status).to.equal(201);
  });

  it('one path per method: POST /api/profiles is the guest’s (public), GET /api/profiles the floor’s list (staff); /me is no profile id', async () => {
    const b = await booking(2);
    expect((await as({}).get(`/api/profiles?eventId=${b.event.id}`)).status).to.equal(401);
    const created = await create(b);
    expect(created.status).to.equal(201);
    // `me` never reaches the staff routes of /api/profiles/{profileId}: without the profile's token it is the guest's 404.
    expect((await staff().get('/api/profiles/me')).status).to.equal(404);
    expect((await staff().patch('/api/profiles/me', { tableId: null })).status).to.equal(400);
  });

  it('keeps /api/public/profiles… for one release: the same handlers and answers, with Deprecation and a Link to the successor', async () => {
    const b = await booking(3);
    const expectDeprecated = (res: { headers: Headers }, successor: string) => {
      expect(res.headers.get('deprecation')).to.match(/^@\d+$/);
      expect(res.headers.get('link')).to.equal(`<${successor}>; rel="successor-version"`);
    };
    const old = await as({ ...address(), 'x-reservation-token': b.accessToken }).post('/api/public/profiles', { reservationReference: b.reference, displayName: 'Old path' });
    expect(old.status, JSON.stringify(old.body)).to.equal(201);
    expectDeprecated(old, '/api/profiles');
    expect(old.headers.get('cache-control')).to.equal('no-store');
    // A refusal of the old path says so too.
    const refused = await as({ ...address(), 'x-reservation-token': 'wrong-token-wrong-token-wrong' }).post('/api/public/profiles', { reservationReference: b.reference, displayName: 'X' });
    expect(refused.status).to.equal(404);
    expectDeprecated(refused, '/api/profiles');

    // A profile made on either path is read, changed and reacts on both, with the same answers.
    const current = await create(b, { displayName: 'New path' });
    for (const profile of [old.body, current.body]) {
      const now = await mine(profile.profileToken).get('/api/profiles/me');
      const before = await mine(profile.profileToken).get('/api/public/profiles/me');
      expect(before.status).to.equal(200);
      expect(before.body).to.deep.equal(now.body);
      expectDeprecated(before, '/api/profiles/me');
      expect(now.headers.get('deprecation')).to.equal(null);
      expect(now.headers.get('link')).to.equal(null);
    }
    const patched = await mine(old.body.profileToken).patch('/api/public/profiles/me', { displayName: 'Renamed' });
    expect(patched.status).to.equal(200);
    expect(patched.body.displayName).to.equal('Renamed');
    expectDeprecated(patched, '/api/profiles/me');
    expect((await mine(old.body.profileToken).get('/api/profiles/me')).body.displayName).to.equal('Renamed');
    const missing = await mine('x'.repeat(43)).get('/api/public/profiles/me');
    expect(missing.status).to.equal(404);
    expectDeprecated(missing, '/api/profiles/me');

    const knex = spec.server.db.knex;
    await knex('show_events').where({ id: b.event.id }).update({ starts_at: new Date(Date.now() - 3_600_000), doors_at: null });
    const id = (await knex('reservations').where({ reference: b.reference }).first('id')).id;
    await inTransition(spec.server.app.context, 'SYSTEM', (ctx) => confirmReservation(ctx, id, { by: 'STAFF' }));
    const reaction = await mine(old.body.profileToken).post('/api/public/profiles/me/reactions', { emoji: '👏', comment: 'old path' });
    expect(reaction.status, JSON.stringify(reaction.body)).to.equal(201);
    expect(reaction.body).to.include({ emoji: '👏', comment: 'old path', displayName: 'Renamed', profileId: old.body.id });
    expectDeprecated(reaction, '/api/profiles/me/reactions');
    const successor = await mine(current.body.profileToken).post('/api/profiles/me/reactions', { emoji: '👏' });
    expect(successor.status).to.equal(201);
    expect(successor.headers.get('deprecation')).to.equal(null);
    const listed = await staff().get(`/api/guest-reactions?eventId=${b.event.id}`);
    expect(listed.body.items.map((r: any) => r.displayName).sort()).to.deep.equal(['New path', 'Renamed']);
  });
});
