import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { bytes, json } from '../../platform/http/handler.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { checkInQrPng, checkInQrSvg } from './qr.ts';
import { cancelPublicReservation } from './commands/cancelPublicReservation.ts';
import { captureCustomerLead } from './commands/captureCustomerLead.ts';
import { createPublicReservation } from './commands/createPublicReservation.ts';
import { guestTextLocale, presentGuestReservation } from './presenters.ts';
import { cancellationWindowHours, guestMoney, guestReservation, guestTicketToken } from './queries.ts';
import { quoteBooking } from './quote.ts';
import { throttle } from './services.ts';

/** Unknown reference, wrong token, missing token: one answer, so nothing says whether a reference exists. */
const NoSuchReservation = () => NotFound('No such reservation, or the token does not open it.');

const TOKEN_HEADER = 'x-reservation-token';
const token = (call: Call) => call.header(TOKEN_HEADER) || undefined;

async function presentation(call: Call, textLocale?: string) {
  const windowHours = await cancellationWindowHours(call.app.db.knex);
  const { siteLocales, defaultLocale, bankTransfer } = call.app.config;
  return { siteLocales, defaultLocale, cancellationWindowHours: windowHours, now: new Date(), textLocale, bankAccount: bankTransfer };
}

export const handlers = {
  async captureCustomerLead(call) {
    await throttle(call.app.bookingLimits.leads, call.ip);
    const origin = { ip: call.ip, userAgent: call.header('user-agent'), sourceUrl: call.header('referer') || undefined };
    const lead = await captureCustomerLead(call.app, call.body, origin);
    return json(201, { leadReference: lead.leadReference, expiresAt: lead.expiresAt.toISOString() });
  },

  async createPublicReservation(call) {
    const key = call.header('idempotency-key') || undefined;
    const { siteLocales, defaultLocale } = call.app.config;
    // The address's hold budget is spent by what reaches the hold's transaction (a replay or a certain sold-out
    // refusal writes nothing and is answered without it: createPublicReservation).
    const spend = () => throttle(call.app.bookingLimits.holds, call.ip);
    const answer = await createPublicReservation(call.app, call.body, key, { siteLocales, defaultLocale }, { throttle: spend });
    return json(201, answer.body, { 'Cache-Control': 'no-store', ...(answer.replayed ? { 'Idempotent-Replayed': 'true' } : {}) });
  },

  async quoteReservation(call) {
    await throttle(call.app.bookingLimits.quotes, call.ip);
    return json(200, await quoteBooking(call.app, call.body), { 'Cache-Control': 'no-store' });
  },

  async getPublicReservation(call) {
    const { knex } = call.app.db;
    const reservation = await guestReservation(knex, call.params.reference, token(call));
    if (!reservation) throw NoSuchReservation();
    const p = await presentation(call, call.query.locale);
    return json(200, presentGuestReservation(reservation, await guestMoney(knex, reservation.id), p), { 'Cache-Control': 'no-store', 'Content-Language': guestTextLocale(reservation.locale, p) });
  },

  async getPublicReservationTicket(call) {
    const { knex } = call.app.db;
    const reservation = await guestReservation(knex, call.params.reference, token(call));
    if (!reservation) throw NoSuchReservation();
    const checkInToken = await guestTicketToken(knex, reservation);
    const headers = { 'Cache-Control': 'no-store' };
    if (call.query.format === 'svg') return bytes(Buffer.from(await checkInQrSvg(checkInToken)), 'image/svg+xml', { headers });
    return bytes(await checkInQrPng(checkInToken), 'image/png', { headers });
  },

  async cancelPublicReservation(call) {
    const reservation = await cancelPublicReservation(call.app, call.params.reference, token(call), call.body?.reason);
    if (!reservation) throw NoSuchReservation();
    return json(200, presentGuestReservation(reservation, await guestMoney(call.app.db.knex, reservation.id), await presentation(call)), { 'Cache-Control': 'no-store' });
  },
} satisfies Partial<OperationHandlers>;
