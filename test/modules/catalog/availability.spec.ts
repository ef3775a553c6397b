import { expect } from 'chai';
import { availabilityOf, seatsTakenByEvent, type AvailabilityInput } from '../../../server/domain/availability.ts';
import { resetData, testDatabase } from '../../helpers/database.ts';
import { buildOffer } from '../offers/factories.ts';
import { buildEvent, ON_SALE } from '../showEvents/factories.ts';
import { buildShow } from '../shows/factories.ts';

const startsAt = new Date('2026-12-05T12:30:00.000Z');
const base: AvailabilityInput = {
  capacity: 100,
  seatsTaken: 0,
  salesOpen: true,
  status: 'SCHEDULED',
  startsAt,
  bookingCutoffMinutes: 120,
  limitedAvailabilityThreshold: 10,
  now: new Date('2026-12-01T00:00:00.000Z'),
};
const at = (overrides: Partial<AvailabilityInput>) => availabilityOf({ ...base, ...overrides });

describe('catalog availability (server/domain/availability.ts)', () => {
  describe('availabilityOf', () => {
    it('is AVAILABLE with the exact seats left while more than the threshold are left', () => {
      expect(at({})).to.deep.equal({ state: 'AVAILABLE', seatsLeft: 100, bookingClosesAt: new Date('2026-12-05T10:30:00.000Z') });
      expect(at({ seatsTaken: 89 })).to.include({ state: 'AVAILABLE', seatsLeft: 11 });
    });

    it('is LIMITED, without a count, at and below the threshold; SOLD_OUT at none (or overbooked)', () => {
      expect(at({ seatsTaken: 90 })).to.include({ state: 'LIMITED', seatsLeft: null });
      expect(at({ seatsTaken: 99 })).to.include({ state: 'LIMITED', seatsLeft: null });
      expect(at({ seatsTaken: 100 })).to.include({ state: 'SOLD_OUT', seatsLeft: null });
      expect(at({ seatsTaken: 130 })).to.include({ state: 'SOLD_OUT', seatsLeft: null });
      // A small room under the threshold never shows its count.
      expect(at({ capacity: 8 })).to.include({ state: 'LIMITED', seatsLeft: null });
    });

    it('with a threshold of 0 shows every count down to the last seat', () => {
      expect(at({ limitedAvailabilityThreshold: 0, seatsTaken: 99 })).to.include({ state: 'AVAILABLE', seatsLeft: 1 });
      expect(at({ limitedAvailabilityThreshold: 0, seatsTaken: 100 })).to.include({ state: 'SOLD_OUT', seatsLeft: null });
    });

    it('closes at the cut-off instant itself, not a millisecond before', () => {
      const cutoff = new Date('2026-12-05T10:30:00.000Z');
      expect(at({ now: new Date(cutoff.getTime() - 1) }).state).to.equal('AVAILABLE');
      expect(at({ now: cutoff })).to.include({ state: 'CLOSED', seatsLeft: null });
      expect(at({ now: startsAt }).state).to.equal('CLOSED');
      expect(at({ bookingCutoffMinutes: 0, now: new Date(startsAt.getTime() - 1) }).state).to.equal('AVAILABLE');
      expect(at({ bookingCutoffMinutes: 0, now: startsAt }).state).to.equal('CLOSED');
    });

    it('is CLOSED when sales are closed, or the event is cancelled or completed — even when sold out', () => {
      expect(at({ salesOpen: false }).state).to.equal('CLOSED');
      expect(at({ status: 'CANCELLED' }).state).to.equal('CLOSED');
      expect(at({ status: 'COMPLETED' }).state).to.equal('CLOSED');
      expect(at({ salesOpen: false, seatsTaken: 100 }).state).to.equal('CLOSED');
    });
  });

  describe('seatsTakenByEvent', () => {
    it('answers for many events in one query: 0 each without bookings', async () => {
      const db = await testDatabase();
      await resetData(db.knex);
      const show = await buildShow({ status: 'PUBLISHED' });
      const events = [];
      for (let i = 0; i < 25; i++) events.push(await buildEvent(show, { ...ON_SALE, startsAt: new Date(Date.UTC(2030, 0, 1 + i, 12)) }));
      const queries: string[] = [];
      const count = (q: { sql: string }) => queries.push(q.sql);
      db.knex.on('query', count);
      try {
        const taken = await seatsTakenByEvent(db.knex, events.map((e) => e.id), new Date());
        expect(queries).to.have.length(1);
        expect([...taken.values()]).to.deep.equal(events.map(() => 0));
        expect([...taken.keys()].sort()).to.deep.equal(events.map((e) => e.id).sort());
        expect(await seatsTakenByEvent(db.knex, [], new Date())).to.have.property('size', 0);
        expect(queries).to.have.length(1);
      } finally {
        db.knex.off('query', count);
      }
    });
    it('counts the guests of confirmed, checked-in and unexpired held reservations only (issue 9)', async () => {
      const db = await testDatabase();
      await resetData(db.knex);
      const show = await buildShow({ status: 'PUBLISHED' });
      const event = await buildEvent(show, { ...ON_SALE, startsAt: new Date(Date.UTC(2030, 0, 1, 12)), capacity: 20 });
      const other = await buildEvent(show, { ...ON_SALE, startsAt: new Date(Date.UTC(2030, 0, 2, 12)) });
      const offer = await buildOffer({ showId: show.id, pricePerGuestVnd: 1_000_000 });
      const [customer] = await db.knex('customers').insert({ name: 'A', email: 'a@example.com', email_normalized: 'a@example.com' }).returning(['id']);
      const now = new Date();
      let n = 0;
      const reserve = (eventId: string, guests: number, status: string, holdExpiresAt: Date | null = null) =>
        db.knex('reservations').insert({
          reference: `VN-AAAA${String(++n).padStart(2, '0')}`,
          show_event_id: eventId,
          offer_id: offer.id,
          customer_id: customer.id,
          guest_count: guests,
          status,
          hold_expires_at: holdExpiresAt,
          price_per_guest_vnd: 1,
          subtotal_vnd: guests,
          service_charge_vnd: 0,
          vat_vnd: 0,
          total_vnd: guests,
          service_charge_percent: 0,
          vat_percent: 0,
          booking_path: 'DINNER_SHOW',
          access_token_hash: Buffer.alloc(32),
        });
      await reserve(event.id, 2, 'CONFIRMED');
      await reserve(event.id, 3, 'CHECKED_IN');
      await reserve(event.id, 4, 'HELD', new Date(now.getTime() + 60_000));
      await reserve(event.id, 5, 'HELD', new Date(now.getTime() - 1));
      await reserve(event.id, 6, 'CANCELLED');
      await reserve(event.id, 7, 'EXPIRED');
      await reserve(event.id, 8, 'NO_SHOW');
      await reserve(other.id, 9, 'CONFIRMED');
      const taken = await seatsTakenByEvent(db.knex, [event.id, other.id], now);
      expect(taken.get(event.id)).to.equal(9);
      expect(taken.get(other.id)).to.equal(9);
      // A hold lowers what the public catalog shows, down to SOLD_OUT.
      const left = (seatsTaken: number) => at({ capacity: 20, seatsTaken, limitedAvailabilityThreshold: 5 });
      expect(left(taken.get(event.id)!)).to.include({ state: 'AVAILABLE', seatsLeft: 11 });
      await reserve(event.id, 11, 'HELD', new Date(now.getTime() + 60_000));
      expect(left((await seatsTakenByEvent(db.knex, [event.id], now)).get(event.id)!).state).to.equal('SOLD_OUT');
    });
  });
});
