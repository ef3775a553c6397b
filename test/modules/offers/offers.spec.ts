import { expect } from 'chai';
import { errorPaths } from '../../helpers/accounts.ts';
import { buildFulfillmentItem } from '../fulfillment/factories.ts';
import { buildOffer } from './factories.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';
import { buildShow } from '../shows/factories.ts';

describe('offers: /api/offers', () => {
  const spec = catalogSpec();
  const as = spec.as;
  const admin = () => as(spec.callers.admin);
  const validOffer = (code: string, extra: Record<string, unknown> = {}) => ({
    code,
    name: { en: 'Dinner and show', vi: 'Bữa tối và biểu diễn' },
    bookingPath: 'DINNER_SHOW',
    experienceType: 'STANDARD',
    pricePerGuestVnd: 1_850_000,
    ...extra,
  });

  describe('access', () => {
    it('401 anonymous; staff can neither read (admin+, spec §4.3) nor create, update or deactivate (403); admin can', async () => {
      const offer = await buildOffer();
      expect((await as({}).get('/api/offers')).status).to.equal(401);
      expect((await as({}).post('/api/offers', validOffer('ANON'))).status).to.equal(401);
      const staff = as(spec.callers.staff);
      for (const res of [await staff.get('/api/offers'), await staff.get(`/api/offers/${offer.id}`)]) {
        expect(res.status).to.equal(403);
        expect(res.body.code).to.equal('insufficient_role');
      }
      expect((await admin().get('/api/offers')).status).to.equal(200);
      expect((await admin().get(`/api/offers/${offer.id}`)).status).to.equal(200);
      expect((await staff.post('/api/offers', validOffer('STAFF'))).status).to.equal(403);
      expect((await staff.patch(`/api/offers/${offer.id}`, { sortOrder: 1 })).status).to.equal(403);
      expect((await staff.delete(`/api/offers/${offer.id}`)).status).to.equal(403);
      expect((await spec.server.db.knex('offers').where('id', offer.id).first()).status).to.equal('ACTIVE');
      expect((await admin().post('/api/offers', validOffer('ADMIN'))).status).to.equal(201);
    });

    it('takes API keys with offers:read / offers:write only for their own operations', async () => {
      const reader = await apiKeyWith('offers:read');
      expect((await as(reader).get('/api/offers')).status).to.equal(200);
      expect((await as(reader).post('/api/offers', validOffer('KEYRO'))).body.code).to.equal('missing_permission');
      expect((await as(await apiKeyWith('offers:write')).post('/api/offers', validOffer('KEYRW'))).status).to.equal(201);
    });
  });

  describe('create', () => {
    it('creates an offer with its items (by code or id), defaults filled, name per locale', async () => {
      const show = await buildShow();
      const beef = await buildFulfillmentItem({ code: 'C-BEEF', name: { en: 'Beef', vi: 'Bò' } });
      const wine = await buildFulfillmentItem({ code: 'C-WINE', kind: 'DRINK' });
      const res = await admin().post('/api/offers', validOffer('C-DINNER', {
        showId: show.id,
        name: { en: 'Dinner and show' },
        items: [{ fulfillmentItemId: wine.id, quantityPerGuest: 2 }, { code: 'C-BEEF', quantityPerGuest: 1 }],
      }));
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ code: 'C-DINNER', showId: show.id, bookingPath: 'DINNER_SHOW', experienceType: 'STANDARD', pricePerGuestVnd: 1_850_000, minGuests: 1, maxGuests: 10, status: 'ACTIVE', sortOrder: 0, salesStartsAt: null, salesEndsAt: null });
      expect(res.body.name).to.deep.equal({ en: 'Dinner and show', vi: 'Dinner and show' });
      expect(res.body.untranslated).to.deep.equal(['name/vi']);
      expect(res.body.items).to.deep.equal([
        { fulfillmentItemId: beef.id, code: 'C-BEEF', name: { en: 'Beef', vi: 'Bò' }, kind: 'MEAL', quantityPerGuest: 1 },
        { fulfillmentItemId: wine.id, code: 'C-WINE', name: { en: 'Item C-WINE', vi: 'Item C-WINE' }, kind: 'DRINK', quantityPerGuest: 2 },
      ]);
      const every = await admin().post('/api/offers', validOffer('C-ALL', { showId: null }));
      expect(every.body.showId).to.equal(null);
      expect(every.body.items).to.deep.equal([]);
    });

    it('refuses minGuests above maxGuests and an inverted sales window with 422 and a field pointer (not a 500)', async () => {
      const range = await admin().post('/api/offers', validOffer('C-RANGE', { minGuests: 8, maxGuests: 4 }));
      expect(range.status).to.equal(422);
      expect(range.body.code).to.equal('guest_range');
      expect(errorPaths(range)).to.deep.equal(['body/maxGuests']);
      // The default maxGuests (10) counts too.
      expect(errorPaths(await admin().post('/api/offers', validOffer('C-RANGE', { minGuests: 12 })))).to.deep.equal(['body/maxGuests']);
      const window = await admin().post('/api/offers', validOffer('C-WINDOW', { salesStartsAt: '2026-12-01T00:00:00Z', salesEndsAt: '2026-12-01T00:00:00Z' }));
      expect(window.status).to.equal(422);
      expect(window.body.code).to.equal('sales_window');
      expect(errorPaths(window)).to.deep.equal(['body/salesEndsAt']);
      expect(await spec.server.db.knex('offers').whereIn('code', ['C-RANGE', 'C-WINDOW'])).to.have.length(0);
    });

    it('refuses an unknown show, unknown or repeated items, and bad locales with 422 naming each', async () => {
      const item = await buildFulfillmentItem({ code: 'C-ITEM' });
      const res = await admin().post('/api/offers', validOffer('C-BAD', {
        showId: MISSING_ID,
        items: [{ code: 'C-ITEM', quantityPerGuest: 1 }, { code: 'NOPE', quantityPerGuest: 1 }, { fulfillmentItemId: item.id, quantityPerGuest: 3 }, { fulfillmentItemId: MISSING_ID, quantityPerGuest: 1 }],
      }));
      expect(res.status).to.equal(422);
      expect(res.body.code).to.equal('unknown_show');
      expect(errorPaths(res)).to.deep.equal(['body/showId', 'body/items/1/code', 'body/items/2/fulfillmentItemId', 'body/items/3/fulfillmentItemId']);
      expect(res.body.errors.map((e: any) => e.code)).to.deep.equal(['unknown_show', 'unknown_fulfillment_item', 'duplicate_item', 'unknown_fulfillment_item']);
      const locale = await admin().post('/api/offers', validOffer('C-LOC', { name: { vi: 'Bữa tối' }, description: { en: 'x', zh: 'y' } }));
      expect(locale.status).to.equal(422);
      expect(errorPaths(locale)).to.deep.equal(['body/name/en', 'body/description/zh']);
      expect(await spec.server.db.knex('offers').whereIn('code', ['C-BAD', 'C-LOC'])).to.have.length(0);
    });

    it('refuses malformed fields with 400 (price, guests, code, item with both names or none, extra fields)', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [validOffer('C-P', { pricePerGuestVnd: -1 }), 'body/pricePerGuestVnd'],
        [validOffer('C-P', { pricePerGuestVnd: 1.5 }), 'body/pricePerGuestVnd'],
        [validOffer('C-G', { minGuests: 0 }), 'body/minGuests'],
        [validOffer('C-G', { maxGuests: 1001 }), 'body/maxGuests'],
        [validOffer('c lower'), 'body/code'],
        [validOffer('C-B', { bookingPath: 'TAKEAWAY' }), 'body/bookingPath'],
        [validOffer('C-I', { items: [{ quantityPerGuest: 1 }] }), 'body/items/0/code'],
        [validOffer('C-I', { items: [{ code: 'X1', fulfillmentItemId: MISSING_ID, quantityPerGuest: 1 }] }), 'body/items/0'],
        [validOffer('C-I', { items: [{ code: 'X1', quantityPerGuest: 0 }] }), 'body/items/0/quantityPerGuest'],
        [validOffer('C-X', { showCode: 'SGC' }), 'body/showCode'],
      ];
      for (const [body, path] of cases) {
        const res = await admin().post('/api/offers', body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(errorPaths(res), JSON.stringify(body)).to.include(path);
      }
    });

    it('refuses a taken code (409 code_taken)', async () => {
      await buildOffer({ code: 'C-TAKEN' });
      const res = await admin().post('/api/offers', validOffer('C-TAKEN'));
      expect(res.status).to.equal(409);
      expect(res.body.code).to.equal('code_taken');
    });
  });

  describe('list and get', () => {
    let showA: string;
    before(async () => {
      await spec.server.db.knex('offers').delete();
      showA = (await buildShow()).id;
      const showB = (await buildShow()).id;
      await buildOffer({ code: 'L-B', showId: showA, sortOrder: 1 });
      await buildOffer({ code: 'L-A', showId: showA, sortOrder: 1, bookingPath: 'SHOW_ONLY' });
      await buildOffer({ code: 'L-C', showId: showB, sortOrder: 0, status: 'INACTIVE' });
      await buildOffer({ code: 'L-D', showId: null, sortOrder: 5, bookingPath: 'SHOW_ONLY' });
    });

    it('orders by sortOrder, then code, with paging and total', async () => {
      const all = await admin().get('/api/offers');
      expect(all.body.items.map((o: any) => o.code)).to.deep.equal(['L-C', 'L-A', 'L-B', 'L-D']);
      expect(all.body).to.include({ total: 4, limit: 20, offset: 0 });
      const page = await admin().get('/api/offers?limit=1&offset=1');
      expect(page.body.items.map((o: any) => o.code)).to.deep.equal(['L-A']);
      expect(page.body.total).to.equal(4);
    });

    it('filters by showId, status and bookingPath (combined)', async () => {
      const codes = async (query: string) => (await admin().get(`/api/offers?${query}`)).body.items.map((o: any) => o.code);
      expect(await codes(`showId=${showA}`)).to.deep.equal(['L-A', 'L-B']);
      expect(await codes('status=INACTIVE')).to.deep.equal(['L-C']);
      expect(await codes('bookingPath=SHOW_ONLY')).to.deep.equal(['L-A', 'L-D']);
      expect(await codes(`bookingPath=SHOW_ONLY&showId=${showA}`)).to.deep.equal(['L-A']);
      const bad = await admin().get('/api/offers?showId=nope&status=OFF');
      expect(bad.status).to.equal(400);
    });

    it('gets one offer; 404 unknown, 400 malformed id', async () => {
      const offer = await buildOffer();
      expect((await admin().get(`/api/offers/${offer.id}`)).body.code).to.equal(offer.code);
      expect((await admin().get(`/api/offers/${MISSING_ID}`)).status).to.equal(404);
      expect(errorPaths(await admin().get('/api/offers/123'))).to.include('path/offerId');
    });
  });

  describe('update', () => {
    it('changes the fields sent and replaces the items as a whole', async () => {
      const first = await buildFulfillmentItem();
      const second = await buildFulfillmentItem();
      const created = await admin().post('/api/offers', validOffer('U-ONE', { items: [{ code: first.code, quantityPerGuest: 1 }] }));
      const res = await admin().patch(`/api/offers/${created.body.id}`, { pricePerGuestVnd: 2_000_000, status: 'INACTIVE', items: [{ code: second.code, quantityPerGuest: 3 }] });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ pricePerGuestVnd: 2_000_000, status: 'INACTIVE', code: 'U-ONE' });
      expect(res.body.items.map((i: any) => [i.code, i.quantityPerGuest])).to.deep.equal([[second.code, 3]]);
      const cleared = await admin().patch(`/api/offers/${created.body.id}`, { items: [] });
      expect(cleared.body.items).to.deep.equal([]);
      expect(new Date(cleared.body.updatedAt).getTime()).to.be.at.least(new Date(res.body.updatedAt).getTime());
    });

    it('checks the guest range and sales window against the stored values, pointing at the field sent', async () => {
      const offer = await buildOffer({ minGuests: 2, maxGuests: 6 });
      const min = await admin().patch(`/api/offers/${offer.id}`, { minGuests: 7 });
      expect(min.status).to.equal(422);
      expect(errorPaths(min)).to.deep.equal(['body/minGuests']);
      const max = await admin().patch(`/api/offers/${offer.id}`, { maxGuests: 1 });
      expect(errorPaths(max)).to.deep.equal(['body/maxGuests']);
      expect((await admin().patch(`/api/offers/${offer.id}`, { minGuests: 7, maxGuests: 9 })).status).to.equal(200);
      await admin().patch(`/api/offers/${offer.id}`, { salesEndsAt: '2026-12-31T00:00:00Z' });
      const start = await admin().patch(`/api/offers/${offer.id}`, { salesStartsAt: '2027-01-01T00:00:00Z' });
      expect(start.status).to.equal(422);
      expect(start.body.code).to.equal('sales_window');
      expect(errorPaths(start)).to.deep.equal(['body/salesStartsAt']);
      const open = await admin().patch(`/api/offers/${offer.id}`, { salesStartsAt: '2026-12-01T00:00:00Z', salesEndsAt: null });
      expect(open.body).to.include({ salesStartsAt: '2026-12-01T00:00:00.000Z', salesEndsAt: null });
    });

    it('refuses an unknown show (422), a taken code (409), an empty patch (400), an unknown offer (404)', async () => {
      const offer = await buildOffer();
      await buildOffer({ code: 'U-TAKEN' });
      const show = await admin().patch(`/api/offers/${offer.id}`, { showId: MISSING_ID });
      expect(show.status).to.equal(422);
      expect(errorPaths(show)).to.deep.equal(['body/showId']);
      expect((await admin().patch(`/api/offers/${offer.id}`, { code: 'U-TAKEN' })).body.code).to.equal('code_taken');
      expect((await admin().patch(`/api/offers/${offer.id}`, {})).status).to.equal(400);
      expect((await admin().patch(`/api/offers/${MISSING_ID}`, { sortOrder: 1 })).status).to.equal(404);
    });
  });

  describe('delete = deactivate', () => {
    it('sets INACTIVE and keeps the row and its items; again is the same 200; 404 for an unknown offer', async () => {
      const item = await buildFulfillmentItem();
      const created = await admin().post('/api/offers', validOffer('D-ONE', { items: [{ code: item.code, quantityPerGuest: 1 }] }));
      const res = await admin().delete(`/api/offers/${created.body.id}`);
      expect(res.status).to.equal(200);
      expect(res.body.status).to.equal('INACTIVE');
      expect(res.body.items).to.have.length(1);
      expect(await spec.server.db.knex('offers').where('id', created.body.id)).to.have.length(1);
      const again = await admin().delete(`/api/offers/${created.body.id}`);
      expect(again.status).to.equal(200);
      expect(again.body).to.include({ status: 'INACTIVE', updatedAt: res.body.updatedAt });
      expect((await admin().delete(`/api/offers/${MISSING_ID}`)).status).to.equal(404);
    });
  });
});
