import { expect } from 'chai';
import { errorPaths } from '../../helpers/accounts.ts';
import { buildFulfillmentItem } from './factories.ts';
import { apiKeyWith, catalogSpec } from '../shows/catalog.ts';

describe('fulfillment: /api/fulfillment-items and /api/sudo/create-fulfillment-items', () => {
  const spec = catalogSpec();

  const list = (query = '', headers: Record<string, string> = spec.callers.admin) => spec.server.request('GET', '/api/fulfillment-items' + query, { headers });
  const upsert = (items: unknown[], headers: Record<string, string> = spec.callers.superuser) => spec.server.request('POST', '/api/sudo/create-fulfillment-items', { headers, body: { items } });

  const seedList = [
    { code: 'MAIN-BEEF', name: { en: 'Wagyu beef main', vi: 'Món chính bò wagyu' }, kind: 'MEAL', dietaryTags: ['contains-dairy'] },
    { code: 'MAIN-VEG', name: { en: 'Lotus root curry' }, kind: 'MEAL', dietaryTags: ['vegetarian', 'gluten-free'] },
    { code: 'WELCOME-DRINK', name: { en: 'Welcome cocktail' }, kind: 'DRINK' },
  ];

  describe('access', () => {
    it('lists for admins (401 anonymous, 403 staff: spec §4.3); the upsert is superuser only (403 admin, no API key at all)', async () => {
      expect((await list('', {})).status).to.equal(401);
      const staff = await list('', spec.callers.staff);
      expect(staff.status).to.equal(403);
      expect(staff.body.code).to.equal('insufficient_role');
      expect((await list('', spec.callers.admin)).status).to.equal(200);
      expect((await upsert(seedList, {})).status).to.equal(401);
      expect((await upsert(seedList, spec.callers.admin)).status).to.equal(403);
      const key = await apiKeyWith('fulfillment-items:seed', 'fulfillment-items:read');
      const byKey = await upsert(seedList, key);
      expect(byKey.status).to.equal(403);
      expect(byKey.body.code).to.equal('api_key_not_allowed');
      expect((await list('', key)).status).to.equal(200);
      expect((await list('', await apiKeyWith('offers:read'))).status).to.equal(403);
      expect(await spec.server.db.knex('fulfillment_items')).to.have.length(0);
    });
  });

  describe('upsert by code', () => {
    it('creates, then reports a second identical run all unchanged, then updates what differs', async () => {
      const first = await upsert(seedList);
      expect(first.status).to.equal(200);
      expect(first.body.counts).to.deep.equal({ created: 3, updated: 0, unchanged: 0 });
      expect(first.body.results.map((r: any) => [r.code, r.outcome])).to.deep.equal([
        ['MAIN-BEEF', 'created'],
        ['MAIN-VEG', 'created'],
        ['WELCOME-DRINK', 'created'],
      ]);
      const veg = first.body.results[1].item;
      expect(veg.dietaryTags).to.deep.equal(['gluten-free', 'vegetarian']);
      expect(veg.name).to.deep.equal({ en: 'Lotus root curry', vi: 'Lotus root curry' });
      expect(veg.untranslated).to.deep.equal(['name/vi']);

      const second = await upsert(seedList);
      expect(second.body.counts).to.deep.equal({ created: 0, updated: 0, unchanged: 3 });
      expect(second.body.results[1].item.updatedAt).to.equal(veg.updatedAt);

      // Tag order carries no meaning: the same tags in another order are unchanged.
      const reordered = await upsert([{ ...seedList[1], dietaryTags: ['gluten-free', 'vegetarian'] }]);
      expect(reordered.body.counts).to.deep.equal({ created: 0, updated: 0, unchanged: 1 });

      const changed = await upsert([{ ...seedList[0], kind: 'SERVICE' }, { ...seedList[1], name: { en: 'Lotus root curry', vi: 'Cà ri ngó sen' } }, { ...seedList[2], dietaryTags: ['vegan'] }, { code: 'MERCH-FAN', name: { en: 'Paper fan' }, kind: 'MERCH' }]);
      expect(changed.body.counts).to.deep.equal({ created: 1, updated: 3, unchanged: 0 });
      const rows = await spec.server.db.knex('fulfillment_items').orderBy('code');
      expect(rows.map((r: any) => [r.code, r.kind, r.dietary_tags])).to.deep.equal([
        ['MAIN-BEEF', 'SERVICE', ['contains-dairy']],
        ['MAIN-VEG', 'MEAL', ['gluten-free', 'vegetarian']],
        ['MERCH-FAN', 'MERCH', []],
        ['WELCOME-DRINK', 'DRINK', ['vegan']],
      ]);
    });

    it('refuses the whole list on any bad entry (422 pointing into body/items/<i>), writing nothing', async () => {
      await spec.server.db.knex('fulfillment_items').delete();
      const duplicate = await upsert([seedList[0], seedList[2], seedList[0]]);
      expect(duplicate.status).to.equal(422);
      expect(duplicate.body.code).to.equal('duplicate_code');
      expect(errorPaths(duplicate)).to.deep.equal(['body/items/2/code']);

      const locale = await upsert([seedList[0], { ...seedList[1], name: { vi: 'Cà ri' } }, { ...seedList[2], name: { en: 'x', ja: 'y' } }]);
      expect(locale.status).to.equal(422);
      expect(errorPaths(locale)).to.deep.equal(['body/items/1/name/en', 'body/items/2/name/ja']);
      expect(await spec.server.db.knex('fulfillment_items')).to.have.length(0);
    });

    it('refuses malformed entries with 400 (tag not a lower-case slug, kind, code, empty list)', async () => {
      const cases: Array<[unknown[], string]> = [
        [[{ ...seedList[0], dietaryTags: ['Vegetarian'] }], 'body/items/0/dietaryTags/0'],
        [[{ ...seedList[0], dietaryTags: ['gluten free'] }], 'body/items/0/dietaryTags/0'],
        [[{ ...seedList[0], dietaryTags: ['vegan', 'vegan'] }], 'body/items/0/dietaryTags'],
        [[{ ...seedList[0], kind: 'FOOD' }], 'body/items/0/kind'],
        [[{ ...seedList[0], code: 'main beef' }], 'body/items/0/code'],
        [[], 'body/items'],
      ];
      for (const [items, path] of cases) {
        const res = await upsert(items);
        expect(res.status, JSON.stringify(items)).to.equal(400);
        expect(errorPaths(res), JSON.stringify(items)).to.include(path);
      }
    });
  });

  describe('list', () => {
    before(async () => {
      await spec.server.db.knex('fulfillment_items').delete();
      for (const [code, kind] of [['WINE', 'DRINK'], ['BEEF', 'MEAL'], ['FAN', 'MERCH'], ['CAKE', 'MEAL'], ['TEA', 'DRINK']] as const) {
        await buildFulfillmentItem({ code, kind });
      }
    });

    it('orders by code, pages with a total, and filters by kind', async () => {
      const all = await list();
      expect(all.body.items.map((i: any) => i.code)).to.deep.equal(['BEEF', 'CAKE', 'FAN', 'TEA', 'WINE']);
      expect(all.body).to.include({ total: 5, limit: 20, offset: 0 });
      const page = await list('?limit=2&offset=2');
      expect(page.body.items.map((i: any) => i.code)).to.deep.equal(['FAN', 'TEA']);
      expect(page.body.total).to.equal(5);
      const drinks = await list('?kind=DRINK');
      expect(drinks.body.items.map((i: any) => i.code)).to.deep.equal(['TEA', 'WINE']);
      expect(drinks.body.total).to.equal(2);
      const bad = await list('?kind=FOOD');
      expect(bad.status).to.equal(400);
      expect(errorPaths(bad)).to.include('query/kind');
    });
  });
});
