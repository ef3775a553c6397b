import { expect } from 'chai';
import { bookingTotals } from '../../../server/modules/showEvents/logistics.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { bookableEvent, contact } from './factories.ts';
import { buildOffer } from '../offers/factories.ts';

describe('booking: the logistics counts real reservations (bookingTotals)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { trustProxy: true } });
  });
  after(() => server.close());

  it('counts CONFIRMED and CHECKED_IN guests by offer and by table zone; holds, cancelled and other events are left out', async () => {
    const knex = server.db.knex;
    const { event, offer, show } = await bookableEvent();
    const second = await buildOffer({ showId: { id: show.id, slug: show.slug, code: show.code }.id, pricePerGuestVnd: 1_000_000 });
    const other = await bookableEvent();
    const [vip, main] = await knex('venue_tables')
      .insert([
        { code: 'V1', zone: 'VIP', seats: 6 },
        { code: 'M1', zone: 'MAIN', seats: 8 },
      ])
      .returning(['id']);
    let n = 0;
    const book = async (slug: string, offerCode: string, guestCount: number, status: string, tableId: string | null = null) => {
      const res = await server.request<any>('POST', '/api/public/reservations', {
        body: { eventSlug: slug, offerCode, guestCount, contact: contact(++n) },
        headers: { 'x-forwarded-for': `10.99.0.${n}` },
      });
      expect(res.status).to.equal(201);
      await knex('reservations')
        .where({ reference: res.body.reference })
        .update({ status, table_id: tableId, hold_expires_at: status === 'HELD' ? new Date(Date.now() + 600_000) : null });
    };
    expect(await bookingTotals(knex, event.id)).to.deep.equal({ byOffer: new Map(), byZone: new Map() });
    await book(event.slug, offer.code, 2, 'CONFIRMED', vip.id);
    await book(event.slug, offer.code, 3, 'CHECKED_IN', main.id);
    await book(event.slug, offer.code, 1, 'CONFIRMED');
    await book(event.slug, second.code, 4, 'HELD', vip.id);
    await book(event.slug, second.code, 5, 'CANCELLED');
    await book(event.slug, second.code, 2, 'CHECKED_IN', vip.id);
    await book(other.event.slug, other.offer.code, 7, 'CONFIRMED', main.id);

    const totals = await bookingTotals(knex, event.id);
    expect(Object.fromEntries(totals.byOffer)).to.deep.equal({
      [offer.id]: { guests: 6, checkedIn: 3, parties: 3, partiesCheckedIn: 1 },
      [second.id]: { guests: 2, checkedIn: 2, parties: 1, partiesCheckedIn: 1 },
    });
    expect(Object.fromEntries(totals.byZone)).to.deep.equal({ VIP: { tablesInUse: 1, guestsSeated: 4 }, MAIN: { tablesInUse: 1, guestsSeated: 3 } });
  });
});
