import { expect } from 'chai';
import { countRows } from '../../helpers/accounts.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { buildPayment } from '../payments/factories.ts';
import { guestHold } from './helpers.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';
import { buildTable } from '../tables/factories.ts';

/**
 * The operators' reservations (issue 9, "The operator"): list, get, phone booking, changes, confirm, cancel,
 * no-show — Staff+, API keys by permission — through the booking state machine.
 */
describe('reservations: /api/reservations (staff)', () => {
  const spec = catalogSpec({ config: { trustProxy: true } });
  const as = spec.as;
  const staff = () => as(spec.callers.staff);
  const knex = () => spec.server.db.knex;
  const row = (id: string) => knex()('reservations').where({ id }).first();

  /** A phone booking by staff; answers the response. */
  const phoneBooking = (body: Record<string, unknown>) => staff().post('/api/reservations', body);

  describe('access', () => {
    it('refuses anonymous callers (401) on every operation and writes nothing', async () => {
      const { event, offer } = await bookableEvent();
      const id = await guestHold(spec.server, event, offer);
      const anonymous = as({});
      for (const res of [
        await anonymous.get('/api/reservations'),
        await anonymous.get(`/api/reservations/${id}`),
        await anonymous.post('/api/reservations', { eventId: event.id, offerCode: offer.code, guestCount: 2, contact: contact(2) }),
        await anonymous.patch(`/api/reservations/${id}`, { staffNotes: 'x' }),
        await anonymous.post(`/api/reservations/${id}/confirm`),
        await anonymous.post(`/api/reservations/${id}/cancel`, {}),
        await anonymous.post(`/api/reservations/${id}/no-show`),
      ]) {
        expect(res.status).to.equal(401);
      }
      expect(await row(id)).to.include({ status: 'HELD', staff_notes: null });
      expect(await countRows(knex(), 'reservations', { show_event_id: event.id })).to.equal(1);
    });

    it('takes staff sessions; API keys need reservations:read / :write / :cancel for their own operations', async () => {
      const { event, offer } = await bookableEvent();
      const id = await guestHold(spec.server, event, offer);
      expect((await staff().get('/api/reservations')).status).to.equal(200);
      expect((await staff().get(`/api/reservations/${id}`)).status).to.equal(200);

      const reader = await apiKeyWith('reservations:read');
      expect((await as(reader).get(`/api/reservations/${id}`)).status).to.equal(200);
      const refused = await as(reader).patch(`/api/reservations/${id}`, { staffNotes: 'by key' });
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('missing_permission');

      const writer = await apiKeyWith('reservations:write');
      expect((await as(writer).patch(`/api/reservations/${id}`, { staffNotes: 'by key' })).status).to.equal(200);
      expect((await as(writer).post(`/api/reservations/${id}/cancel`, {})).body.code).to.equal('missing_permission');
      expect((await as(writer).get(`/api/reservations/${id}`)).body.code).to.equal('missing_permission');
      const canceller = await apiKeyWith('reservations:cancel');
      const cancelled = await as(canceller).post(`/api/reservations/${id}/cancel`, { reason: 'by key' });
      expect(cancelled.status).to.equal(200);
      expect(cancelled.body.status).to.equal('CANCELLED');
    });

    it('400 for a malformed id, an unknown field or a bad filter; 404 for an unknown reservation', async () => {
      expect((await staff().get('/api/reservations/not-a-uuid')).status).to.equal(400);
      expect((await staff().get('/api/reservations?status=LOST')).status).to.equal(400);
      expect((await staff().get('/api/reservations?date=05-12-2026')).status).to.equal(400);
      expect((await staff().get('/api/reservations?limit=0')).status).to.equal(400);
      const { event, offer } = await bookableEvent();
      const id = await guestHold(spec.server, event, offer);
      const unknownField = await staff().patch(`/api/reservations/${id}`, { status: 'CONFIRMED' });
      expect(unknownField.status).to.equal(400);
      expect((await staff().patch(`/api/reservations/${id}`, {})).status).to.equal(400);
      expect((await staff().post('/api/reservations', { eventId: event.id, offerCode: offer.code, guestCount: 2 })).status).to.equal(400);
      for (const path of [`/api/reservations/${MISSING_ID}`]) expect((await staff().get(path)).status).to.equal(404);
      expect((await staff().patch(`/api/reservations/${MISSING_ID}`, { staffNotes: 'x' })).status).to.equal(404);
      expect((await staff().post(`/api/reservations/${MISSING_ID}/confirm`)).status).to.equal(404);
      expect((await staff().post(`/api/reservations/${MISSING_ID}/cancel`, {})).status).to.equal(404);
      expect((await staff().post(`/api/reservations/${MISSING_ID}/no-show`)).status).to.equal(404);
    });
  });

  describe('GET /api/reservations/{id}', () => {
    it('answers the staff view: contact, price breakdown, table, notes, payments; never a token or its hash', async () => {
      const { event, offer } = await bookableEvent({ price: 1_500_000 });
      const id = await guestHold(spec.server, event, offer, 2, { ...contact(7), honorific: 'Ms' } as ReturnType<typeof contact>);
      const tableId = (await buildTable({ code: 'G7' })).id;
      await knex()('reservations').where({ id }).update({ table_id: tableId, staff_notes: 'VIP guest', customer_note: 'Vegetarian' });
      await buildPayment(id, { amount: 1_000_000, gateway: 'CASH', refundedVnd: 200_000, status: 'PARTIALLY_REFUNDED' });
      await buildPayment(id, { amount: 500_000, gateway: 'CASH', status: 'FAILED' });

      const res = await staff().get(`/api/reservations/${id}`);
      expect(res.status).to.equal(200);
      const body = res.body;
      expect(body).to.include({ id, status: 'HELD', guestCount: 2, staffNotes: 'VIP guest', customerNote: 'Vegetarian', confirmedAt: null, cancelledBy: null });
      expect(body.customer).to.include({ name: 'Guest 7', email: 'guest7@example.com', honorific: 'Ms', isDeleted: false });
      expect(body.table).to.deep.equal({ id: tableId, code: 'G7', zone: 'MAIN', seats: 4 });
      expect(body.event).to.include({ id: event.id, slug: event.slug, status: 'SCHEDULED' });
      expect(body.offer).to.include({ id: offer.id, code: offer.code });
      expect(body.price).to.deep.equal({
        currency: 'VND',
        pricePerGuestVnd: 1_500_000,
        subtotalVnd: 3_000_000,
        promoDiscountVnd: 0,
        referralDiscountVnd: 0,
        discountVnd: 0,
        serviceChargeVnd: 150_000,
        vatVnd: 252_000,
        voucherCreditVnd: 0,
        totalVnd: 3_402_000,
        serviceChargePercent: 5,
        vatPercent: 8,
      });
      expect(body.payments).to.include({ paidVnd: 1_000_000, refundedVnd: 200_000, balanceVnd: 3_402_000 - 800_000 });
      expect(body.payments.items.map((p: { status: string }) => p.status).sort()).to.deep.equal(['FAILED', 'PARTIALLY_REFUNDED']);
      const text = JSON.stringify(body).toLowerCase();
      for (const secret of ['token', 'hash', 'analytics']) expect(text).not.to.include(secret);

      // A deleted table leaves the reservation without one.
      await knex()('venue_tables').where({ id: tableId }).delete();
      expect((await staff().get(`/api/reservations/${id}`)).body.table).to.equal(null);
    });
  });

  describe('GET /api/reservations', () => {
    it('filters by event, local date, status as read and search; newest first or by event time; pages', async () => {
      const early = await bookableEvent({ days: 20 });
      const late = await bookableEvent({ days: 30 });
      const a = await guestHold(spec.server, late.event, late.offer, 2, { ...contact(31), name: 'Phạm Thị Unique', phone: '+84 99 888 7777' });
      const b = await guestHold(spec.server, early.event, early.offer, 2, contact(32));
      const c = await guestHold(spec.server, early.event, early.offer, 1, { ...contact(33), email: 'Findable.33@Example.com' });
      await knex()('reservations').where({ id: c }).update({ hold_expires_at: new Date(Date.now() - 1000) });
      const reference = (await row(a)).reference as string;

      const ids = async (query: string) => {
        const res = await staff().get(`/api/reservations?${query}`);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.items.map((item: { id: string }) => item.id);
      };
      expect(await ids(`eventId=${early.event.id}`)).to.deep.equal([c, b]);
      expect(await ids(`eventId=${early.event.id}&status=HELD`)).to.deep.equal([b]);
      expect(await ids(`eventId=${early.event.id}&status=EXPIRED`)).to.deep.equal([c]);
      const listed = (await staff().get(`/api/reservations?eventId=${early.event.id}`)).body.items;
      expect(listed[0]).to.include({ status: 'EXPIRED', reference: (await row(c)).reference });
      expect(Object.keys(listed[0]).sort()).to.deep.equal(['bookedContact', 'createdAt', 'customer', 'event', 'guestCount', 'id', 'offerCode', 'reference', 'status', 'table', 'totalVnd']);

      const zone = spec.server.config.venueTimezone;
      const localDate = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(late.startsAt);
      expect(await ids(`date=${localDate}`)).to.deep.equal([a]);
      expect(await ids(`q=${reference.toLowerCase()}`)).to.deep.equal([a]);
      expect(await ids('q=unique')).to.deep.equal([a]);
      expect(await ids(`q=${encodeURIComponent('99 888')}`)).to.deep.equal([a]);
      expect(await ids('q=findable.33')).to.deep.equal([c]);
      expect(await ids('q=%25')).to.deep.equal([]);

      const both = `q=guest3&sort=eventTime`;
      const byEventTime = await ids(both);
      expect(byEventTime.indexOf(b)).to.be.below(byEventTime.indexOf(a));
      expect(byEventTime.indexOf(c)).to.be.below(byEventTime.indexOf(b), 'same event: newest first');
      const page = await staff().get(`/api/reservations?eventId=${early.event.id}&limit=1&offset=1`);
      expect(page.body).to.include({ total: 2, limit: 1, offset: 1 });
      expect(page.body.items.map((item: { id: string }) => item.id)).to.deep.equal([b]);
    });
  });

  describe('POST /api/reservations (phone booking)', () => {
    it('holds with the guest rules, staff notes and table; no token is shown; the expiry job is queued', async () => {
      const { event, offer } = await bookableEvent({ capacity: 10, price: 1_000_000 });
      const tableId = (await buildTable({ code: 'P1' })).id;
      const res = await phoneBooking({ eventId: event.id, offerCode: offer.code, guestCount: 3, contact: contact(41), customerNote: 'Birthday', staffNotes: 'Took it by phone', tableId });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ status: 'HELD', guestCount: 3, staffNotes: 'Took it by phone', customerNote: 'Birthday', confirmedAt: null });
      expect(res.body.holdExpiresAt).to.be.a('string');
      expect(res.body.table.code).to.equal('P1');
      expect(res.body.price.totalVnd).to.equal(3_402_000);
      expect(JSON.stringify(res.body).toLowerCase()).not.to.include('token');
      const stored = await row(res.body.id);
      expect(stored).to.include({ status: 'HELD', table_id: tableId, staff_notes: 'Took it by phone' });
      const jobs = await knex()('pgboss.job').where({ name: 'booking.expire-holds' }).select('data');
      expect(jobs.some((job: { data: { reservationId?: string } }) => job.data.reservationId === res.body.id)).to.equal(true);
      expect((await knex()('customers').where({ id: stored.customer_id }).first()).email_normalized).to.equal('guest41@example.com');
    });

    it('confirms at once when asked: CONFIRMED by STAFF, check-in token stored hashed, confirmation e-mail queued', async () => {
      const { event, offer } = await bookableEvent();
      const res = await phoneBooking({ eventId: event.id, offerCode: offer.code, guestCount: 2, contact: { ...contact(42), locale: 'en' }, confirm: true });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ status: 'CONFIRMED', confirmedBy: 'STAFF', holdExpiresAt: null });
      const stored = await row(res.body.id);
      expect(stored.check_in_token_hash).to.not.equal(null);
      const mail = await knex()('email_messages').where({ reservation_id: res.body.id }).select('template', 'to_address', 'locale');
      expect(mail).to.deep.equal([{ template: 'reservation-confirmation', to_address: 'guest42@example.com', locale: 'en' }]);
    });

    it('refuses with the hold codes and writes nothing: 404 event, 409 seats, 422 guests range, offer, table', async () => {
      const { event, offer } = await bookableEvent({ capacity: 4, minGuests: 2, maxGuests: 6 });
      const base = { eventId: event.id, offerCode: offer.code, contact: contact(43) };
      const [reservations, customers, mails] = await Promise.all([countRows(knex(), 'reservations'), countRows(knex(), 'customers'), countRows(knex(), 'email_messages')]);
      const codeOf = async (body: Record<string, unknown>) => {
        const res = await phoneBooking(body);
        return `${res.status} ${res.body.code}`;
      };
      expect(await codeOf({ ...base, guestCount: 5 })).to.equal('409 not_enough_seats');
      expect(await codeOf({ ...base, guestCount: 1 })).to.equal('422 guest_count_out_of_range');
      expect(await codeOf({ ...base, guestCount: 2, offerCode: 'NOPE' })).to.equal('422 offer_unavailable');
      expect(await codeOf({ ...base, guestCount: 2, tableId: MISSING_ID, confirm: true })).to.equal('422 unknown_table');
      expect(await codeOf({ ...base, eventId: MISSING_ID, guestCount: 2 })).to.equal('404 not_found');
      await knex()('show_events').where({ id: event.id }).update({ sales_open: false });
      expect(await codeOf({ ...base, guestCount: 2, confirm: true })).to.equal('409 sales_closed');
      await knex()('show_events').where({ id: event.id }).update({ sales_open: true });
      expect(await countRows(knex(), 'reservations')).to.equal(reservations);
      expect(await countRows(knex(), 'customers')).to.equal(customers);
      expect(await countRows(knex(), 'email_messages')).to.equal(mails);
      expect((await phoneBooking({ ...base, guestCount: 4 })).status).to.equal(201);
      expect(await codeOf({ ...base, guestCount: 2 })).to.equal('409 sold_out');
    });
  });

  describe('PATCH /api/reservations/{id}', () => {
    it('changes the guest count within the free seats and re-prices it with the booking’s own price and rates', async () => {
      const { event, offer } = await bookableEvent({ capacity: 6, price: 1_000_000 });
      const id = await guestHold(spec.server, event, offer, 2);
      await guestHold(spec.server, event, offer, 2, contact(2));
      // A later price change of the offer or the setup does not re-price the booking.
      await knex()('offers').where({ id: offer.id }).update({ price_per_guest_vnd: 9_000_000 });
      await knex()('commercial_setup').where({ id: 1 }).update({ vat_percent: 20 });
      try {
        const grown = await staff().patch(`/api/reservations/${id}`, { guestCount: 4 });
        expect(grown.status, JSON.stringify(grown.body)).to.equal(200);
        expect(grown.body.guestCount).to.equal(4);
        // 4 × 1,000,000; 5 % = 200,000; 8 % of 4,200,000 = 336,000.
        expect(grown.body.price).to.include({ pricePerGuestVnd: 1_000_000, subtotalVnd: 4_000_000, serviceChargeVnd: 200_000, vatVnd: 336_000, totalVnd: 4_536_000 });
        const refused = await staff().patch(`/api/reservations/${id}`, { guestCount: 5, staffNotes: 'should not stay' });
        expect(refused.status).to.equal(409);
        expect(refused.body.code).to.equal('not_enough_seats');
        expect(await row(id)).to.include({ guest_count: 4, total_vnd: 4_536_000, staff_notes: null });
        const shrunk = await staff().patch(`/api/reservations/${id}`, { guestCount: 1 });
        expect(shrunk.body.price.totalVnd).to.equal(1_134_000);
        expect((await staff().patch(`/api/reservations/${id}`, { guestCount: 11 })).body).to.include({ status: 422, code: 'guest_count_out_of_range' });
      } finally {
        await knex()('commercial_setup').where({ id: 1 }).update({ vat_percent: 8 });
      }
    });

    it('sets and clears the table (which must exist) and the staff notes', async () => {
      const { event, offer } = await bookableEvent();
      const id = await guestHold(spec.server, event, offer);
      const tableId = (await buildTable({ code: 'T9' })).id;
      const set = await staff().patch(`/api/reservations/${id}`, { tableId, staffNotes: 'Near the stage' });
      expect(set.body.table.code).to.equal('T9');
      expect(set.body.staffNotes).to.equal('Near the stage');
      const unknown = await staff().patch(`/api/reservations/${id}`, { tableId: MISSING_ID, staffNotes: 'lost' });
      expect(unknown.status).to.equal(422);
      expect(unknown.body.code).to.equal('unknown_table');
      expect(await row(id)).to.include({ table_id: tableId, staff_notes: 'Near the stage' });
      const cleared = await staff().patch(`/api/reservations/${id}`, { tableId: null, staffNotes: null });
      expect(cleared.body).to.include({ table: null, staffNotes: null });
    });

    it('409 reservation_not_editable for the guest count of a closed reservation; notes still change', async () => {
      const { event, offer } = await bookableEvent();
      const id = await guestHold(spec.server, event, offer);
      await knex()('reservations').where({ id }).update({ hold_expires_at: new Date(Date.now() - 1000) });
      const expired = await staff().patch(`/api/reservations/${id}`, { guestCount: 3 });
      expect(expired.status).to.equal(409);
      expect(expired.body.code).to.equal('reservation_not_editable');
      expect((await staff().patch(`/api/reservations/${id}`, { staffNotes: 'called back' })).status).to.equal(200);
      const other = await guestHold(spec.server, event, offer, 2, contact(3));
      await knex()('show_events').where({ id: event.id }).update({ status: 'CANCELLED', cancelled_at: new Date() });
      expect((await staff().patch(`/api/reservations/${other}`, { guestCount: 3 })).body.code).to.equal('event_not_bookable');
    });

    it('never oversells: concurrent guest-count changes and holds on one event, exactly the free seats taken @db', async function () {
      this.timeout(120_000);
      const { event, offer } = await bookableEvent({ capacity: 20, maxGuests: 10 });
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(await guestHold(spec.server, event, offer, 1, contact(100 + i)));
      // 8 of 20 taken; 8 changes asking 3 more each (24) and 8 holds of 2 (16) race for the 12 free seats.
      const answers = await Promise.all([
        ...ids.map((id) => staff().patch(`/api/reservations/${id}`, { guestCount: 4 })),
        ...Array.from({ length: 8 }, (_, i) => phoneBooking({ eventId: event.id, offerCode: offer.code, guestCount: 2, contact: contact(200 + i) })),
      ]);
      for (const res of answers) expect([200, 201, 409], JSON.stringify(res.body)).to.include(res.status);
      const refused = answers.filter((res) => res.status === 409);
      for (const res of refused) expect(['not_enough_seats', 'sold_out']).to.include(res.body.code);
      const taken = Number((await knex()('reservations').where({ show_event_id: event.id, status: 'HELD' }).sum({ n: 'guest_count' }).first())!.n);
      const grown = answers.slice(0, 8).filter((res) => res.status === 200).length;
      const held = answers.slice(8).filter((res) => res.status === 201).length;
      expect(taken).to.equal(8 + grown * 3 + held * 2);
      expect(taken).to.be.at.most(20);
      // Free seats only shrink, so whatever was refused still does not fit at the end.
      if (grown < 8) expect(20 - taken).to.be.below(3);
      if (held < 8) expect(20 - taken).to.be.below(2);
      expect(grown + held, 'some of each race won').to.be.at.least(4);
    });
  });

  describe('confirm, cancel, no-show', () => {
    it('confirms a hold (idempotent); an expired hold or a cancelled reservation is 409 illegal_transition', async () => {
      const { event, offer } = await bookableEvent();
      const id = await guestHold(spec.server, event, offer);
      const res = await staff().post(`/api/reservations/${id}/confirm`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'CONFIRMED', confirmedBy: 'STAFF' });
      const hash = (await row(id)).check_in_token_hash;
      expect((await staff().post(`/api/reservations/${id}/confirm`)).body.status).to.equal('CONFIRMED');
      expect(Buffer.from((await row(id)).check_in_token_hash).equals(Buffer.from(hash)), 'a repeat writes nothing').to.equal(true);
      expect(await countRows(knex(), 'email_messages', { reservation_id: id })).to.equal(1);

      const expired = await guestHold(spec.server, event, offer, 2, contact(2));
      await knex()('reservations').where({ id: expired }).update({ hold_expires_at: new Date(Date.now() - 1000) });
      const refused = await staff().post(`/api/reservations/${expired}/confirm`);
      expect(refused.status).to.equal(409);
      expect(refused.body.code).to.equal('illegal_transition');
      expect(await row(expired)).to.include({ status: 'HELD', confirmed_at: null });
      const cancelled = await guestHold(spec.server, event, offer, 2, contact(3));
      await staff().post(`/api/reservations/${cancelled}/cancel`, {});
      expect((await staff().post(`/api/reservations/${cancelled}/confirm`)).body).to.include({ status: 409, code: 'illegal_transition' });
      expect(await row(cancelled)).to.include({ status: 'CANCELLED', confirmed_at: null });
    });

    it('cancels HELD or CONFIRMED with a reason (by STAFF, whatever the guest window); 409 reservation_not_cancellable otherwise', async () => {
      const { event, offer } = await bookableEvent({ days: 1 });
      const id = await guestHold(spec.server, event, offer);
      await staff().post(`/api/reservations/${id}/confirm`);
      const res = await staff().post(`/api/reservations/${id}/cancel`, { reason: 'Guest called' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'CANCELLED', cancelledBy: 'STAFF', cancellationReason: 'Guest called' });
      const again = await staff().post(`/api/reservations/${id}/cancel`, { reason: 'Twice' });
      expect(again.status).to.equal(200);
      expect(again.body.cancellationReason).to.equal('Guest called');
      // No body at all is fine.
      const other = await guestHold(spec.server, event, offer, 2, contact(2));
      expect((await spec.server.request('POST', `/api/reservations/${other}/cancel`, { headers: spec.callers.staff })).body.status).to.equal('CANCELLED');

      const noShow = await guestHold(spec.server, event, offer, 2, contact(3));
      await knex()('reservations').where({ id: noShow }).update({ status: 'NO_SHOW', hold_expires_at: null });
      const refused = await staff().post(`/api/reservations/${noShow}/cancel`, {});
      expect(refused.status).to.equal(409);
      expect(refused.body.code).to.equal('reservation_not_cancellable');
      expect(await row(noShow)).to.include({ status: 'NO_SHOW', cancelled_at: null });
    });

    it('marks a confirmed guest a no-show once the event started; 409 event_not_started before, illegal_transition from HELD', async () => {
      const { event, offer } = await bookableEvent();
      const id = await guestHold(spec.server, event, offer);
      const held = await staff().post(`/api/reservations/${id}/no-show`);
      expect(held.status).to.equal(409);
      expect(held.body.code).to.equal('illegal_transition');
      await staff().post(`/api/reservations/${id}/confirm`);
      const early = await staff().post(`/api/reservations/${id}/no-show`);
      expect(early.status).to.equal(409);
      expect(early.body.code).to.equal('event_not_started');
      await knex()('show_events').where({ id: event.id }).update({ starts_at: new Date(Date.now() - 3_600_000), doors_at: null });
      const res = await staff().post(`/api/reservations/${id}/no-show`);
      expect(res.status).to.equal(200);
      expect(res.body.status).to.equal('NO_SHOW');
      expect(res.body.noShowAt).to.be.a('string');
      expect((await staff().post(`/api/reservations/${id}/no-show`)).status).to.equal(200);
    });
  });
});
