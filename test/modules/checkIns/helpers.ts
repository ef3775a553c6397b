import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { confirmReservation } from '../../../server/modules/booking/lifecycle.ts';
import { inTransition } from '../../../server/domain/unitOfWork.ts';
import type { TestServer } from '../../helpers/server.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { buildPayment } from '../payments/factories.ts';
import { buildTable } from '../tables/factories.ts';

let guest = 0;

export interface DoorBooking {
  id: string;
  reference: string;
  /** The check-in token of the QR code (set when confirmed). */
  token: string;
  eventId: string;
  offerId: string;
  totalVnd: number;
}

/**
 * A reservation made through the public booking route, then (by default) confirmed through the lifecycle's
 * `confirmReservation` (which issues the real check-in token), paid with a succeeded cash payment, and moved to
 * an event starting now (so it is on today's door day). `startsAt` moves the event elsewhere in time.
 */
export async function doorBooking(
  server: TestServer,
  options: {
    guests?: number;
    confirm?: 'PAYMENT' | 'STAFF' | false;
    paid?: boolean;
    startsAt?: Date;
    tableCode?: string;
    /** The guest's contact (default: a fresh `Ms Guest 9…`). */
    contact?: Record<string, unknown>;
  } = {},
): Promise<DoorBooking> {
  const knex = server.db.knex;
  const { event, offer } = await bookableEvent();
  const n = ++guest;
  const res = await server.request<any>('POST', '/api/public/reservations', {
    body: { eventSlug: event.slug, offerCode: offer.code, guestCount: options.guests ?? 2, contact: options.contact ?? { ...contact(9000 + n), honorific: 'Ms' } },
    headers: { 'x-forwarded-for': `198.51.${Math.floor(n / 200)}.${n % 200}` },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const row = await knex('reservations').where({ reference: res.body.reference }).first('id', 'total_vnd');
  let token = '';
  const confirm = options.confirm ?? 'PAYMENT';
  if (confirm) {
    const confirmed = await inTransition(server.app.context, 'SYSTEM', (ctx) => confirmReservation(ctx, row.id, { by: confirm }));
    token = confirmed.checkInToken!;
  }
  if (options.paid ?? confirm === 'PAYMENT') {
    await buildPayment(row.id, { amount: Number(row.total_vnd), gateway: 'CASH', txnRef: `T${randomUUID()}` });
  }
  if (options.tableCode) {
    const table = await buildTable({ code: options.tableCode, zone: 'VIP', seats: 6 });
    await knex('reservations').where({ id: row.id }).update({ table_id: table.id });
  }
  const startsAt = options.startsAt ?? new Date();
  await knex('show_events').where({ id: event.id }).update({ starts_at: startsAt, doors_at: new Date(startsAt.getTime() - 30 * 60_000) });
  return { id: row.id, reference: res.body.reference, token, eventId: event.id, offerId: offer.id, totalVnd: Number(row.total_vnd) };
}

/** Counts the database queries the app's knex runs while `work` runs (the job engine's own are left out). */
export async function countQueries(server: TestServer, work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (query: { sql: string }) => {
    if (!/pgboss/i.test(query.sql)) seen.push(query.sql);
  };
  server.db.knex.on('query', listener);
  try {
    await work();
  } finally {
    server.db.knex.removeListener('query', listener);
  }
  return seen;
}
