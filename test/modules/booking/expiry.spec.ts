import { expect } from 'chai';
import { EXPIRE_HOLDS_QUEUE } from '../../../server/modules/booking/jobs.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { eventually } from '../../helpers/eventually.ts';
import { bookableEvent, contact } from './factories.ts';

describe('booking: the hold expiry job (booking.expire-holds) @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { trustProxy: true }, jobs: { workers: true, pollingIntervalSeconds: 0.5 } });
  });
  after(() => server.close());

  it('each hold schedules its expiry run at its hold expiry; a run marks the overdue holds EXPIRED', async function () {
    this.timeout(30_000);
    const knex = server.db.knex;
    const { event, offer } = await bookableEvent();
    const res = await server.request<any>('POST', '/api/public/reservations', {
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact() },
      headers: { 'x-forwarded-for': '10.77.0.1' },
    });
    expect(res.status).to.equal(201);
    const { rows } = (await knex.raw(`select start_after, data from pgboss.job where name = ?`, [EXPIRE_HOLDS_QUEUE])) as { rows: Array<{ start_after: Date; data: { reservationId: string } }> };
    expect(rows).to.have.length(1);
    expect(new Date(rows[0].start_after).toISOString()).to.equal(res.body.holdExpiresAt);

    // The hold ends; its run comes due (moved forward here instead of waiting 15 minutes).
    await knex('reservations').update({ hold_expires_at: new Date(Date.now() - 1000) });
    await knex.raw(`update pgboss.job set start_after = now() where name = ?`, [EXPIRE_HOLDS_QUEUE]);
    const status = await eventually(async () => (await knex('reservations').first('status')).status as string, { until: (s) => s !== 'HELD', timeoutMs: 20_000, intervalMs: 200, delayFirst: true, orLast: true });
    expect(status).to.equal('EXPIRED');
    const row = await knex('reservations').first('expired_at');
    expect(row.expired_at).to.be.an.instanceOf(Date);
  });
});
