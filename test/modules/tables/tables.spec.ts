import { expect } from 'chai';
import { errorPaths } from '../../helpers/accounts.ts';
import { buildMemberSession } from '../../helpers/factories.ts';
import { cookieHeader } from '../../helpers/server.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';

/**
 * Tables are Staff+ for every operation (spec §4.3) and hard-deleted (spec §3). Reservations and guest profiles
 * reference `venue_tables` with `ON DELETE SET NULL`, so a deleted table leaves them with a null table (checked
 * below for reservations; the guest-profile spec checks its side when profiles land).
 */
describe('tables: /api/tables', () => {
  const spec = catalogSpec();
  const as = spec.as;
  const staff = () => as(spec.callers.staff);

  it('refuses anonymous callers (401) on every operation', async () => {
    const table = (await staff().post('/api/tables', { code: 'ANON1', zone: 'MAIN', seats: 4 })).body;
    expect((await as({}).get('/api/tables')).status).to.equal(401);
    expect((await as({}).post('/api/tables', { code: 'ANON2', zone: 'MAIN', seats: 4 })).status).to.equal(401);
    expect((await as({}).get(`/api/tables/${table.id}`)).status).to.equal(401);
    expect((await as({}).patch(`/api/tables/${table.id}`, { seats: 2 })).status).to.equal(401);
    expect((await as({}).delete(`/api/tables/${table.id}`)).status).to.equal(401);
    expect(await spec.server.db.knex('venue_tables').where('id', table.id)).to.have.length(1);
  });

  it('lets staff (a kitchen POS member too) do everything: create, get, update, delete (hard, 204)', async () => {
    const kitchen = as(cookieHeader((await buildMemberSession('kitchen_pos')).token));
    const created = await kitchen.post('/api/tables', { code: 'K1', zone: 'BALCONY', seats: 2 });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ code: 'K1', zone: 'BALCONY', seats: 2, sortOrder: 0 });
    expect((await kitchen.get(`/api/tables/${created.body.id}`)).body.code).to.equal('K1');
    const updated = await staff().patch(`/api/tables/${created.body.id}`, { seats: 8, zone: 'VIP', sortOrder: 4, code: 'V9' });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ code: 'V9', zone: 'VIP', seats: 8, sortOrder: 4 });
    const deleted = await kitchen.delete(`/api/tables/${created.body.id}`);
    expect(deleted.status).to.equal(204);
    expect(deleted.text).to.equal('');
    expect(await spec.server.db.knex('venue_tables').where('id', created.body.id)).to.have.length(0);
    expect((await staff().get(`/api/tables/${created.body.id}`)).status).to.equal(404);
    expect((await staff().delete(`/api/tables/${created.body.id}`)).status).to.equal(404);
  });

  it('deletes a table a reservation sits at: the reservation stays, its table becomes null (spec §2.3)', async () => {
    const table = (await staff().post('/api/tables', { code: 'FK1', zone: 'VIP', seats: 6 })).body;
    const { event, offer } = await bookableEvent();
    const held = await as({ 'x-forwarded-for': '203.0.113.77' }).post('/api/public/reservations', { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact(77) });
    expect(held.status).to.equal(201);
    const knex = spec.server.db.knex;
    await knex('reservations').where('reference', held.body.reference).update({ table_id: table.id });
    const seated = await knex('reservations').where('table_id', table.id);
    expect(seated).to.have.length(1);

    expect((await staff().delete(`/api/tables/${table.id}`)).status).to.equal(204);
    const after = await knex('reservations').where('id', seated[0].id).first();
    expect(after, 'the reservation is kept').to.exist;
    expect(after.table_id).to.equal(null);
    expect(after.status).to.equal('HELD');
  });

  it('takes API keys with tables:read / tables:write for their own operations only', async () => {
    const reader = await apiKeyWith('tables:read');
    expect((await as(reader).get('/api/tables')).status).to.equal(200);
    const refused = await as(reader).post('/api/tables', { code: 'KEY1', zone: 'MAIN', seats: 4 });
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('missing_permission');
    expect((await as(await apiKeyWith('tables:write')).post('/api/tables', { code: 'KEY1', zone: 'MAIN', seats: 4 })).status).to.equal(201);
  });

  it('refuses a taken code with 409 code_taken, on create and on update', async () => {
    await staff().post('/api/tables', { code: 'DUP1', zone: 'MAIN', seats: 4 });
    const other = (await staff().post('/api/tables', { code: 'DUP2', zone: 'MAIN', seats: 4 })).body;
    const create = await staff().post('/api/tables', { code: 'DUP1', zone: 'VIP', seats: 2 });
    expect(create.status).to.equal(409);
    expect(create.body.code).to.equal('code_taken');
    const update = await staff().patch(`/api/tables/${other.id}`, { code: 'DUP1' });
    expect(update.status).to.equal(409);
    expect(update.body.code).to.equal('code_taken');
  });

  it('refuses malformed input with 400 naming the field, and 404 for an unknown table', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ code: 'a1', zone: 'MAIN', seats: 4 }, 'body/code'],
      [{ code: 'TOO-LONG-CODE-X17', zone: 'MAIN', seats: 4 }, 'body/code'],
      [{ code: 'Z1', zone: 'GARDEN', seats: 4 }, 'body/zone'],
      [{ code: 'Z1', zone: 'MAIN', seats: 0 }, 'body/seats'],
      [{ code: 'Z1', zone: 'MAIN', seats: 101 }, 'body/seats'],
      [{ code: 'Z1', zone: 'MAIN' }, 'body/seats'],
      [{ code: 'Z1', zone: 'MAIN', seats: 4, label: 'x' }, 'body/label'],
    ];
    for (const [body, path] of cases) {
      const res = await staff().post('/api/tables', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(errorPaths(res), JSON.stringify(body)).to.include(path);
    }
    expect((await staff().patch(`/api/tables/${MISSING_ID}`, { seats: 3 })).status).to.equal(404);
    expect((await staff().patch(`/api/tables/${MISSING_ID}`, {})).status).to.equal(400);
    expect(errorPaths(await staff().get('/api/tables/x'))).to.include('path/tableId');
  });

  describe('list', () => {
    before(async () => {
      await spec.server.db.knex('venue_tables').delete();
      for (const [code, zone, sortOrder] of [['B2', 'BALCONY', 0], ['M2', 'MAIN', 1], ['M1', 'MAIN', 1], ['V1', 'VIP', 0], ['S1', 'STAGE_FRONT', 5], ['M0', 'MAIN', 0]] as const) {
        await spec.server.db.knex('venue_tables').insert({ code, zone, seats: 4, sort_order: sortOrder });
      }
    });

    it('orders by zone in floor order, then sortOrder, then code; pages with a total; filters by zone', async () => {
      const all = await staff().get('/api/tables');
      expect(all.body.items.map((t: any) => t.code)).to.deep.equal(['S1', 'V1', 'M0', 'M1', 'M2', 'B2']);
      expect(all.body).to.include({ total: 6, limit: 20, offset: 0 });
      const page = await staff().get('/api/tables?limit=2&offset=2');
      expect(page.body.items.map((t: any) => t.code)).to.deep.equal(['M0', 'M1']);
      expect(page.body.total).to.equal(6);
      const main = await staff().get('/api/tables?zone=MAIN');
      expect(main.body.items.map((t: any) => t.code)).to.deep.equal(['M0', 'M1', 'M2']);
      expect(main.body.total).to.equal(3);
      expect(errorPaths(await staff().get('/api/tables?zone=ROOF'))).to.include('query/zone');
    });
  });
});
