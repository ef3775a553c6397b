import { expect } from 'chai';
import { availabilityOf, seatsTakenByEvent, type AvailabilityInput } from '../../../server/catalog/availability.ts';
import { resetData, testDatabase } from '../../helpers/database.ts';
import { insertEvent, insertShow } from './fixtures.ts';

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

describe('catalog availability (server/catalog/availability.ts)', () => {
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
    it('answers for many events in one query: 0 each until bookings exist (issue 9)', async () => {
      const db = await testDatabase();
      await resetData(db.knex);
      const show = await insertShow(db.knex);
      const events = [];
      for (let i = 0; i < 25; i++) events.push(await insertEvent(db.knex, show, new Date(Date.UTC(2030, 0, 1 + i, 12))));
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
  });
});
