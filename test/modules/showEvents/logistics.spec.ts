import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { eventLogistics, type BookingTotals } from '../../../server/modules/showEvents/logistics.ts';
import { buildFulfillmentItem } from '../fulfillment/factories.ts';
import { buildOffer } from '../offers/factories.ts';
import { buildEvent } from './factories.ts';
import { specServer } from './helpers.ts';
import { buildShow } from '../shows/factories.ts';
import { buildTable } from '../tables/factories.ts';

describe('showEvents: GET /api/show-events/{eventId}/logistics', () => {
  const spec = specServer();

  it('is staff+ (401 anonymous), 404 for an unknown event', async () => {
    const event = await buildEvent(await buildShow({ status: 'PUBLISHED' }));
    expect((await spec.server.request('GET', `/api/show-events/${event.id}/logistics`)).status).to.equal(401);
    expect((await spec.server.request('GET', `/api/show-events/${event.id}/logistics`, { headers: spec.as.staff })).status).to.equal(200);
    expect((await spec.server.request('GET', `/api/show-events/${randomUUID()}/logistics`, { headers: spec.as.staff })).status).to.equal(404);
  });

  it('lists the offers that apply with their per-guest items, the floor by zone, and counts only what exists (no bookings yet: 0)', async () => {
    const show = await buildShow({ status: 'PUBLISHED', title: { en: 'Saigon Cabaret', vi: 'Sài Gòn Cabaret' }, durationMinutes: 100 });
    const otherShow = await buildShow({ status: 'PUBLISHED' });
    const event = await buildEvent(show, { capacity: 120, staffNotes: 'VIP birthday at table V2' });
    const dinner = await buildFulfillmentItem({ code: 'SET-MENU', name: { en: 'Set menu', vi: 'Thực đơn' }, kind: 'MEAL', dietaryTags: [] });
    const vegan = await buildFulfillmentItem({ code: 'VEGAN-MENU', name: { en: 'Vegan menu' }, kind: 'MEAL', dietaryTags: ['vegan', 'gluten-free'] });
    const wine = await buildFulfillmentItem({ code: 'WINE', name: { en: 'Glass of wine' }, kind: 'DRINK', dietaryTags: [] });
    const own = await buildOffer({ showId: show.id, items: [{ id: dinner.id, quantity: 1 }, { id: wine.id, quantity: 2 }], code: 'SGC-DINNER', sortOrder: 1, name: { en: 'Dinner & show', vi: 'Bữa tối & show' } });
    const everyShow = await buildOffer({ items: [{ id: vegan.id, quantity: 1 }], code: 'ANY-VEGAN', sortOrder: 2, bookingPath: 'VIP_DINNER_SHOW' });
    const showOnly = await buildOffer({ showId: show.id, code: 'SGC-SHOW', sortOrder: 3, bookingPath: 'SHOW_ONLY' });
    await buildOffer({ showId: show.id, items: [{ id: dinner.id, quantity: 1 }], code: 'SGC-OLD', status: 'INACTIVE' });
    await buildOffer({ showId: otherShow.id, items: [{ id: wine.id, quantity: 1 }], code: 'OTHER-WINE' });
    await buildTable({ zone: 'VIP', seats: 6 });
    await buildTable({ zone: 'VIP', seats: 4 });
    await buildTable({ zone: 'MAIN', seats: 8 });

    const res = await spec.server.request('GET', `/api/show-events/${event.id}/logistics`, { headers: spec.as.staff });
    expect(res.status).to.equal(200);
    const body = res.body;
    expect(body.event).to.include({ id: event.id, capacity: 120 });
    expect(body.show).to.deep.equal({ id: show.id, code: show.code, title: { en: 'Saigon Cabaret', vi: 'Sài Gòn Cabaret' }, durationMinutes: 100 });
    expect(body.guests).to.deep.equal({ capacity: 120, expected: 0, checkedIn: 0, remaining: 120 });
    expect(body.parties).to.deep.equal({ expected: 0, checkedIn: 0 });
    expect(body.staffNotes).to.equal('VIP birthday at table V2');
    expect(body.zones).to.deep.equal([
      { zone: 'STAGE_FRONT', tables: 0, seats: 0, tablesInUse: 0, guestsSeated: 0 },
      { zone: 'VIP', tables: 2, seats: 10, tablesInUse: 0, guestsSeated: 0 },
      { zone: 'MAIN', tables: 1, seats: 8, tablesInUse: 0, guestsSeated: 0 },
      { zone: 'BALCONY', tables: 0, seats: 0, tablesInUse: 0, guestsSeated: 0 },
    ]);
    expect(body.offers.map((o: { code: string }) => o.code)).to.deep.equal(['SGC-DINNER', 'ANY-VEGAN', 'SGC-SHOW']);
    expect(body.offers[0]).to.deep.include({ offerId: own.id, showSpecific: true, guests: 0, checkedIn: 0, name: { en: 'Dinner & show', vi: 'Bữa tối & show' } });
    expect(body.offers[0].items).to.deep.equal([
      { fulfillmentItemId: dinner.id, code: 'SET-MENU', name: { en: 'Set menu', vi: 'Thực đơn' }, kind: 'MEAL', dietaryTags: [], quantityPerGuest: 1, toPrepare: 0 },
      { fulfillmentItemId: wine.id, code: 'WINE', name: { en: 'Glass of wine', vi: 'Glass of wine' }, kind: 'DRINK', dietaryTags: [], quantityPerGuest: 2, toPrepare: 0 },
    ]);
    expect(body.offers[1]).to.deep.include({ offerId: everyShow.id, showSpecific: false, bookingPath: 'VIP_DINNER_SHOW' });
    expect(body.offers[2]).to.deep.include({ offerId: showOnly.id, items: [] });
    expect(body.fulfillment.map((f: { code: string; toPrepare: number }) => [f.code, f.toPrepare])).to.deep.equal([
      ['SET-MENU', 0],
      ['VEGAN-MENU', 0],
      ['WINE', 0],
    ]);
    expect(body.dietaryTags).to.deep.equal([
      { tag: 'gluten-free', count: 0 },
      { tag: 'vegan', count: 0 },
    ]);
  });

  it('answers an event with no offers and an empty floor with empty lists and zero zones', async () => {
    const event = await buildEvent(await buildShow({ status: 'PUBLISHED', slug: 'empty-floor' }));
    await spec.server.db.knex('offer_items').delete();
    await spec.server.db.knex('offers').delete();
    await spec.server.db.knex('venue_tables').delete();
    const res = await spec.server.request('GET', `/api/show-events/${event.id}/logistics`, { headers: spec.as.staff });
    expect(res.body).to.deep.include({ offers: [], fulfillment: [], dietaryTags: [], staffNotes: null });
    expect(res.body.zones.every((zone: { tables: number }) => zone.tables === 0)).to.equal(true);
  });

  it('turns booking counts into the workload: items × guests per offer, totals, dietary counts, zones, a booked inactive offer', async () => {
    const show = await buildShow({ status: 'PUBLISHED' });
    const event = await buildEvent(show, { capacity: 50 });
    const dinner = await buildFulfillmentItem({ code: 'A-DINNER', dietaryTags: [] });
    const vegan = await buildFulfillmentItem({ code: 'B-VEGAN', dietaryTags: ['vegan'] });
    const wine = await buildFulfillmentItem({ code: 'C-WINE', kind: 'DRINK', dietaryTags: [] });
    const set = await buildOffer({ showId: show.id, items: [{ id: dinner.id, quantity: 1 }, { id: wine.id, quantity: 2 }], code: 'BK-SET', sortOrder: 1 });
    const green = await buildOffer({ items: [{ id: vegan.id, quantity: 1 }, { id: wine.id, quantity: 1 }], code: 'BK-GREEN', sortOrder: 2 });
    const retired = await buildOffer({ showId: show.id, items: [{ id: dinner.id, quantity: 1 }], code: 'BK-RETIRED', status: 'INACTIVE', sortOrder: 3 });
    const counts = async (): Promise<BookingTotals> => ({
      byOffer: new Map([
        [set.id, { guests: 6, checkedIn: 2, parties: 3, partiesCheckedIn: 1 }],
        [green.id, { guests: 3, checkedIn: 0, parties: 1, partiesCheckedIn: 0 }],
        [retired.id, { guests: 1, checkedIn: 1, parties: 1, partiesCheckedIn: 1 }],
      ]),
      byZone: new Map([['VIP', { tablesInUse: 2, guestsSeated: 7 }]]),
    });
    const config = spec.server.app.context.config;
    const workload = await eventLogistics(spec.server.db.knex, event, show, config, counts);
    expect(workload.guests).to.deep.equal({ capacity: 50, expected: 10, checkedIn: 3, remaining: 40 });
    expect(workload.parties).to.deep.equal({ expected: 5, checkedIn: 2 });
    const mine = workload.offers.filter((offer) => offer.code.startsWith('BK-'));
    expect(mine.map((offer) => [offer.code, offer.guests, offer.checkedIn, offer.items.map((item) => item.toPrepare)])).to.deep.equal([
      ['BK-SET', 6, 2, [6, 12]],
      ['BK-GREEN', 3, 0, [3, 3]],
      ['BK-RETIRED', 1, 1, [1]],
    ]);
    const prepare = Object.fromEntries(workload.fulfillment.map((item) => [item.code, item.toPrepare]));
    expect(prepare).to.include({ 'A-DINNER': 7, 'B-VEGAN': 3, 'C-WINE': 15 });
    expect(workload.dietaryTags).to.deep.include({ tag: 'vegan', count: 3 });
    expect(workload.zones.find((zone) => zone.zone === 'VIP')).to.include({ tablesInUse: 2, guestsSeated: 7 });
  });
});
