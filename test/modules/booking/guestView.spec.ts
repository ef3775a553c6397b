import { expect } from 'chai';
import { checkInQrPng, checkInQrSvg } from '../../../server/modules/booking/qr.ts';
import { digest, openSecret } from '../../../server/platform/auth/tokens.ts';
import { hold, paymentsSpec } from '../payments/helpers.ts';
import { catalogCallers, type CatalogCallers } from '../shows/catalog.ts';

/**
 * Issue 21 §3: the guest's own view. With the reservation's access token a "manage booking" page reads the
 * payment summary (paid, refunded, due, method, state) and the refunds, and shows the check-in QR again (PNG and
 * SVG) without the confirmation e-mail.
 */
describe('booking: the guest view of payments, refunds and the ticket', () => {
  const spec = paymentsSpec();
  let callers: CatalogCallers;
  before(async () => {
    callers = await catalogCallers();
  });

  const read = (reference: string, token: string) => spec.server.request<any>('GET', `/api/public/reservations/${reference}`, { headers: { 'x-reservation-token': token } });
  const ticket = (reference: string, token: string | undefined, format?: string) =>
    spec.server.request<any>('GET', `/api/public/reservations/${reference}/ticket` + (format ? `?format=${format}` : ''), { headers: token ? { 'x-reservation-token': token } : {} });

  it('a hold is unpaid with the total due and has no ticket; paid on site it is PAID, with its QR as PNG and SVG', async () => {
    const held = await hold(spec.server);
    const created = await read(held.reference, held.token);
    expect(created.body.payment).to.deep.equal({ state: 'UNPAID', method: null, paidVnd: 0, refundedVnd: 0, dueVnd: held.totalVnd });
    expect(created.body.refunds).to.deep.equal([]);
    const none = await ticket(held.reference, held.token);
    expect(none.status).to.equal(409);
    expect(none.body.code).to.equal('no_ticket');

    const paid = await spec.server.request<any>('POST', '/api/payments', { headers: callers.admin, body: { reservationId: held.id, method: 'CASH' } });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    const after = await read(held.reference, held.token);
    expect(after.body.status).to.equal('CONFIRMED');
    expect(after.body.payment).to.deep.equal({ state: 'PAID', method: 'CASH', paidVnd: held.totalVnd, refundedVnd: 0, dueVnd: 0 });

    // The QR encodes the check-in token the door staff's lookup takes (its digest is what is stored).
    const row = await spec.server.db.knex('reservations').where({ id: held.id }).first('check_in_token_hash', 'check_in_token_sealed');
    const checkInToken = (await openSecret(spec.server.db.knex, row.check_in_token_sealed))!;
    expect(digest(checkInToken).equals(row.check_in_token_hash)).to.equal(true);
    const png = await ticket(held.reference, held.token);
    expect(png.status).to.equal(200);
    expect(png.headers.get('content-type')).to.equal('image/png');
    expect(png.headers.get('cache-control')).to.equal('no-store');
    expect(png.bytes.equals(await checkInQrPng(checkInToken))).to.equal(true);
    const svg = await ticket(held.reference, held.token, 'svg');
    expect(svg.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(svg.text).to.equal(await checkInQrSvg(checkInToken));
    const lookup = await spec.server.request<any>('GET', `/api/check-ins/lookup?token=${encodeURIComponent(checkInToken)}`, { headers: callers.staff });
    expect(lookup.status, JSON.stringify(lookup.body)).to.equal(200);

    // Wrong or missing token: the same 404 as an unknown reference; a bad format is 400.
    expect((await ticket(held.reference, 'x'.repeat(43))).status).to.equal(404);
    expect((await ticket(held.reference, undefined)).status).to.equal(404);
    expect((await ticket(held.reference, held.token, 'gif')).status).to.equal(400);
  });

  it('shows refunds as they happen: partially refunded, then refunded, with their states', async () => {
    const held = await hold(spec.server);
    const paid = await spec.server.request<any>('POST', '/api/payments', { headers: callers.admin, body: { reservationId: held.id, method: 'CASH' } });
    const part = await spec.server.request<any>('POST', `/api/payments/${paid.body.id}/refunds`, { headers: callers.admin, body: { amountVnd: 100_000, reason: 'Staff-only reason' } });
    expect(part.status, JSON.stringify(part.body)).to.equal(201);
    const partly = await read(held.reference, held.token);
    expect(partly.body.payment).to.include({ state: 'PARTIALLY_REFUNDED', paidVnd: held.totalVnd, refundedVnd: 100_000, dueVnd: 0 });
    expect(partly.body.refunds).to.have.length(1);
    expect(partly.body.refunds[0]).to.include({ amountVnd: 100_000, status: 'SUCCEEDED' });
    expect(partly.text).not.to.include('Staff-only reason');

    const rest = await spec.server.request<any>('POST', `/api/payments/${paid.body.id}/refunds`, { headers: callers.admin, body: { amountVnd: held.totalVnd - 100_000, reason: 'The rest' } });
    expect(rest.status).to.equal(201);
    const all = await read(held.reference, held.token);
    expect(all.body.payment).to.include({ state: 'REFUNDED', refundedVnd: held.totalVnd });
    expect(all.body.refunds.map((r: { amountVnd: number }) => r.amountVnd)).to.deep.equal([100_000, held.totalVnd - 100_000]);
  });

  it('a started VNPay payment reads PENDING with its method until the gateway answers', async () => {
    const held = await hold(spec.server);
    const started = await spec.server.request<any>('POST', `/api/public/reservations/${held.reference}/checkout`, { headers: { 'x-reservation-token': held.token }, body: { method: 'VNPAY' } });
    expect(started.status, JSON.stringify(started.body)).to.equal(201);
    expect((await read(held.reference, held.token)).body.payment).to.deep.equal({ state: 'PENDING', method: 'VNPAY', paidVnd: 0, refundedVnd: 0, dueVnd: held.totalVnd });
  });
});
