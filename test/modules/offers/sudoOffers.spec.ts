import { expect } from 'chai';
import { errorPaths } from '../../helpers/accounts.ts';
import { buildFulfillmentItem } from '../fulfillment/factories.ts';
import { apiKeyWith, catalogSpec } from '../shows/catalog.ts';
import { buildShow } from '../shows/factories.ts';

describe('offers: PUT /api/sudo/offers (seed upsert by code)', () => {
  const spec = catalogSpec();
  before(async () => {
    await buildShow({ code: 'SGC' });
    await buildShow({ code: 'LNT' });
    for (const code of ['MAIN-BEEF', 'MAIN-VEG', 'WELCOME-DRINK']) await buildFulfillmentItem({ code });
  });

  const upsert = (offers: unknown[], headers: Record<string, string> = spec.callers.superuser) => spec.server.request('PUT', '/api/sudo/offers', { headers, body: { offers } });

  const seedList = (): Array<Record<string, any>> => [
    {
      code: 'SGC-DINNER',
      showCode: 'SGC',
      name: { en: 'Dinner and show', vi: 'Bữa tối và biểu diễn' },
      description: { en: 'Four courses before the show.' },
      bookingPath: 'DINNER_SHOW',
      experienceType: 'STANDARD',
      pricePerGuestVnd: 1_850_000,
      maxGuests: 12,
      salesStartsAt: '2026-11-01T00:00:00+07:00',
      items: [{ code: 'MAIN-BEEF', quantityPerGuest: 1 }, { code: 'WELCOME-DRINK', quantityPerGuest: 2 }],
      sortOrder: 1,
    },
    { code: 'SGC-SHOW', showCode: 'SGC', name: { en: 'Show only' }, bookingPath: 'SHOW_ONLY', experienceType: 'STANDARD', pricePerGuestVnd: 900_000 },
    { code: 'ANY-VIP', showCode: null, name: { en: 'VIP dinner' }, bookingPath: 'VIP_DINNER_SHOW', experienceType: 'VIP', pricePerGuestVnd: 3_500_000, minGuests: 2, items: [{ code: 'MAIN-VEG', quantityPerGuest: 1 }] },
  ];

  it('is superuser only: 401 anonymous, 403 admin, 403 api_key_not_allowed for any API key', async () => {
    expect((await upsert(seedList(), {})).status).to.equal(401);
    expect((await upsert(seedList(), spec.callers.admin)).status).to.equal(403);
    const keyed = await upsert(seedList(), await apiKeyWith('offers:seed'));
    expect(keyed.status).to.equal(403);
    expect(keyed.body.code).to.equal('api_key_not_allowed');
    expect(await spec.server.db.knex('offers')).to.have.length(0);
  });

  it('creates, reports a second identical run all unchanged, and updates only what differs', async () => {
    const first = await upsert(seedList());
    expect(first.status).to.equal(200);
    expect(first.body.counts).to.deep.equal({ created: 3, updated: 0, unchanged: 0 });
    const dinner = first.body.results[0].offer;
    const sgc = await spec.server.db.knex('shows').where('code', 'SGC').first();
    expect(dinner).to.include({ code: 'SGC-DINNER', showId: sgc.id, maxGuests: 12, minGuests: 1, status: 'ACTIVE', sortOrder: 1, salesStartsAt: '2026-10-31T17:00:00.000Z', salesEndsAt: null });
    expect(dinner.items.map((i: any) => [i.code, i.quantityPerGuest])).to.deep.equal([['MAIN-BEEF', 1], ['WELCOME-DRINK', 2]]);
    expect(first.body.results[2].offer.showId).to.equal(null);

    const second = await upsert(seedList());
    expect(second.status).to.equal(200);
    expect(second.body.counts).to.deep.equal({ created: 0, updated: 0, unchanged: 3 });
    expect(second.body.results.map((r: any) => r.outcome)).to.deep.equal(['unchanged', 'unchanged', 'unchanged']);
    expect(second.body.results[0].offer.updatedAt).to.equal(dinner.updatedAt);

    // Items listed in another order are the same items.
    const reordered = seedList();
    reordered[0].items.reverse();
    expect((await upsert(reordered)).body.counts).to.deep.equal({ created: 0, updated: 0, unchanged: 3 });

    const changed = seedList();
    changed[0].items = [{ code: 'MAIN-BEEF', quantityPerGuest: 2 }];
    changed[1] = { ...changed[1], showCode: 'LNT' };
    changed[2].status = 'INACTIVE';
    const third = await upsert([...changed, { code: 'LNT-SHOW', showCode: 'LNT', name: { en: 'Lanterns' }, bookingPath: 'SHOW_ONLY', experienceType: 'STANDARD', pricePerGuestVnd: 700_000 }]);
    expect(third.body.counts).to.deep.equal({ created: 1, updated: 3, unchanged: 0 });
    const items = await spec.server.db.knex('offer_items').join('offers', 'offers.id', 'offer_items.offer_id').where('offers.code', 'SGC-DINNER').select('quantity_per_guest');
    expect(items.map((r: any) => r.quantity_per_guest)).to.deep.equal([2]);

    // An omitted optional field is the default again (the entry is the whole state): the description goes.
    const withoutDescription = seedList();
    delete withoutDescription[0].description;
    const fourth = await upsert([withoutDescription[0]]);
    expect(fourth.body.results[0].outcome).to.equal('updated');
    expect(fourth.body.results[0].offer.description).to.deep.equal({ en: '', vi: '' });
  });

  it('refuses the whole list on any bad entry with 422 pointing into body/offers/<i>, writing nothing', async () => {
    const before = await spec.server.db.knex('offers').orderBy('code');
    const list = seedList();
    const bad = [
      { ...list[0], showCode: 'NOPE' },
      { ...list[1], minGuests: 20, maxGuests: 10 },
      { ...list[2], items: [{ code: 'NO-ITEM', quantityPerGuest: 1 }], name: { en: 'VIP', fr: 'VIP' } },
      { ...list[1], code: 'SGC-DINNER' },
      { ...list[1], code: 'NEW-ONE', salesStartsAt: '2026-12-02T00:00:00Z', salesEndsAt: '2026-12-01T00:00:00Z' },
    ];
    const res = await upsert(bad);
    expect(res.status).to.equal(422);
    expect(errorPaths(res)).to.have.members([
      'body/offers/0/showCode',
      'body/offers/1/maxGuests',
      'body/offers/2/items/0/code',
      'body/offers/2/name/fr',
      'body/offers/3/code',
      'body/offers/4/salesEndsAt',
    ]);
    expect(await spec.server.db.knex('offers').orderBy('code')).to.deep.equal(before);
  });

  it('refuses malformed entries with 400 (empty list, item by id, unknown fields)', async () => {
    const list = seedList();
    const cases: Array<[unknown[], string]> = [
      [[], 'body/offers'],
      [[{ ...list[1], items: [{ fulfillmentItemId: '00000000-0000-4000-8000-000000000000', quantityPerGuest: 1 }] }], 'body/offers/0/items/0'],
      [[{ ...list[1], showId: '00000000-0000-4000-8000-000000000000' }], 'body/offers/0/showId'],
      [[{ ...list[1], showCode: 'lower' }], 'body/offers/0/showCode'],
    ];
    for (const [offers, path] of cases) {
      const res = await upsert(offers);
      expect(res.status, JSON.stringify(offers)).to.equal(400);
      expect(errorPaths(res).some((p) => p.startsWith(path)), `${JSON.stringify(errorPaths(res))} ${path}`).to.equal(true);
    }
  });
});
