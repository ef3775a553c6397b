import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { bytes, json } from '../../platform/http/handler.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { holdReservation } from './commands/holdReservation.ts';
import { presentGuestReservation } from './presenters.ts';
import { cancelByGuest } from './commands/cancelByGuest.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from './events.ts';
import { checkInQrPng, checkInQrSvg } from '../email/index.ts';
import { bookingLimits, captureLead, guestMoney, guestTicketToken, reservationForGuest, throttle } from './service.ts';
import { queueLeadConversion } from '../analytics/index.ts';

/** Unknown reference, wrong token, missing token: one answer, so nothing says whether a reference exists. */
const NoSuchReservation = () => NotFound('No such reservation, or the token does not open it.');

const TOKEN_HEADER = 'x-reservation-token';
const token = (call: Call) => call.header(TOKEN_HEADER) || undefined;

async function presentation(call: Call) {
  const setup = await call.app.db.knex('commercial_setup').where({ id: 1 }).first('cancellation_window_hours');
  const { siteLocales, defaultLocale } = call.app.config;
  return { siteLocales, defaultLocale, cancellationWindowHours: Number(setup.cancellation_window_hours), now: new Date() };
}

export const handlers = {
  async captureCustomerLead(call) {
    await throttle(bookingLimits(call.app).leads, call.ip);
    const lead = await captureLead(call.app.db.knex, call.body);
    // Meta `Lead` conversion, after the lead committed (issue 11; best effort, off unless configured).
    await queueLeadConversion(call.app, { leadReference: lead.leadReference, email: call.body.email, phone: call.body.phone, ip: call.ip, userAgent: call.header('user-agent'), sourceUrl: call.header('referer') || undefined });
    return json(201, { leadReference: lead.leadReference, expiresAt: lead.expiresAt.toISOString() });
  },

  async createPublicReservation(call) {
    const key = call.header('idempotency-key') || undefined;
    await throttle(bookingLimits(call.app).holds, call.ip);
    const { siteLocales, defaultLocale } = call.app.config;
    const answer = await holdReservation(call.app, call.body, key, { siteLocales, defaultLocale });
    if (answer.reservationId) await captureBusinessEvent(call.app, BUSINESS_EVENTS.reservationCreated, answer.reservationId);
    return json(201, answer.body, { 'Cache-Control': 'no-store', ...(answer.replayed ? { 'Idempotent-Replayed': 'true' } : {}) });
  },

  async getPublicReservation(call) {
    const { knex } = call.app.db;
    const row = await reservationForGuest(knex, call.params.reference, token(call));
    if (!row) throw NoSuchReservation();
    return json(200, presentGuestReservation(row, await guestMoney(knex, row.id), await presentation(call)), { 'Cache-Control': 'no-store' });
  },

  async getPublicReservationTicket(call) {
    const { knex } = call.app.db;
    const row = await reservationForGuest(knex, call.params.reference, token(call));
    if (!row) throw NoSuchReservation();
    const checkInToken = await guestTicketToken(knex, row);
    const headers = { 'Cache-Control': 'no-store' };
    if (call.query.format === 'svg') return bytes(Buffer.from(await checkInQrSvg(checkInToken)), 'image/svg+xml', { headers });
    return bytes(await checkInQrPng(checkInToken), 'image/png', { headers });
  },

  async cancelPublicReservation(call) {
    const row = await cancelByGuest(call.app, call.params.reference, token(call), call.body?.reason);
    if (!row) throw NoSuchReservation();
    return json(200, presentGuestReservation(row, await guestMoney(call.app.db.knex, row.id), await presentation(call)), { 'Cache-Control': 'no-store' });
  },
} satisfies Partial<OperationHandlers>;
