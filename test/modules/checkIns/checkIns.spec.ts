import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { cancelReservation } from '../../../server/modules/booking/lifecycle.ts';
import { inTransition } from '../../../server/domain/unitOfWork.ts';
import { doorDay, isDoorDay, normalizeToken } from '../../../server/modules/checkIns/door.ts';
import { buildApiKey, buildMemberSession, permissionMap } from '../../helpers/factories.ts';
import { capturedEvents, startFakePostHog, type FakePostHog } from '../../helpers/fakePosthog.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';
import { contract } from '../../helpers/contract.ts';
import { countQueries, doorBooking } from './helpers.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';

/**
 * The door (issue 9, "Check-in"): GET /api/check-ins/{id} (a reservation id, or `lookup?token=`), the deprecated
 * GET /api/check-ins/by-token/{token}, and POST /api/check-ins (ENTRY/EXIT by id or token, idempotent by nonce,
 * every attempt recorded). Reservations come from the public booking route and are confirmed through the
 * lifecycle's confirmReservation, which issues the real check-in token of the QR code.
 */
describe('checkIns: /api/check-ins', () => {
  const spec = catalogSpec({ config: { trustProxy: true } });
  const staff = () => spec.as(spec.callers.staff);
  const nonce = () => `n-${randomUUID()}`;
  const redeem = (body: Record<string, unknown>, headers: Record<string, string> = spec.callers.staff) => spec.as(headers).post('/api/check-ins', { nonce: nonce(), type: 'ENTRY', ...body });
  const rows = (where: Record<string, unknown> = {}) => spec.server.db.knex('check_ins').where(where).orderBy('created_at');

  describe('access', () => {
    it('answers a public caller 401 on every route before any database read (a query counter proves it), and records nothing', async () => {
      const booking = await doorBooking(spec.server);
      const anonymous = spec.as({});
      const answers: number[] = [];
      const queries = await countQueries(spec.server, async () => {
        answers.push((await anonymous.get(`/api/check-ins/${booking.id}`)).status);
        answers.push((await anonymous.get(`/api/check-ins/lookup?token=${encodeURIComponent(` ${booking.token}\n`)}`)).status);
        answers.push((await anonymous.get(`/api/check-ins/by-token/${encodeURIComponent(` ${booking.token} `)}`)).status);
        answers.push((await anonymous.post('/api/check-ins', { token: booking.token, type: 'ENTRY', nonce: nonce() })).status);
        answers.push((await anonymous.post('/api/check-ins', { reservationId: booking.id, type: 'ENTRY', nonce: nonce() })).status);
      });
      expect(answers).to.deep.equal([401, 401, 401, 401, 401]);
      expect(queries, queries.join('\n')).to.deep.equal([]);
      expect(await rows()).to.have.length(0);
      expect((await spec.server.db.knex('reservations').where({ id: booking.id }).first()).status).to.equal('CONFIRMED');
    });

    it('the query counter does see the reads of an admitted caller (it can fail)', async () => {
      const booking = await doorBooking(spec.server);
      const queries = await countQueries(spec.server, () => staff().get(`/api/check-ins/${booking.id}`));
      expect(queries.some((sql) => /from "reservations"/.test(sql))).to.equal(true);
    });

    it('admits staff, admin and superuser sessions and tokens; API keys need check-ins:read to look up and check-ins:redeem to redeem', async () => {
      const booking = await doorBooking(spec.server);
      const kitchen = cookieHeader((await buildMemberSession('kitchen_pos')).token);
      for (const headers of [spec.callers.staff, spec.callers.admin, spec.callers.superuser, kitchen]) {
        expect((await spec.as(headers).get(`/api/check-ins/${booking.id}`)).status).to.equal(200);
      }
      const reader = await apiKeyWith('check-ins:read');
      const redeemer = await apiKeyWith('check-ins:redeem');
      expect((await spec.as(reader).get(`/api/check-ins/${booking.id}`)).status).to.equal(200);
      expect((await spec.as(reader).get(`/api/check-ins/by-token/${booking.token}`)).status).to.equal(200);
      const refused = await redeem({ reservationId: booking.id }, reader);
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('missing_permission');
      expect((await spec.as(redeemer).get(`/api/check-ins/${booking.id}`)).body.code).to.equal('missing_permission');
      expect(await rows()).to.have.length(0);
      const ok = await redeem({ reservationId: booking.id }, redeemer);
      expect(ok.status).to.equal(200);
      expect(ok.body.checkIn.result).to.equal('ok');
    });
  });

  describe('GET /api/check-ins/{id} and lookup?token=', () => {
    it('answers what the door needs: guest, party, offer, table, event, status, payment, verdicts and history', async () => {
      const booking = await doorBooking(spec.server, { guests: 3, tableCode: 'V7' });
      const res = await staff().get(`/api/check-ins/${booking.id}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const { reservation } = res.body;
      expect(reservation).to.deep.include({ id: booking.id, reference: booking.reference, status: 'CONFIRMED', partySize: 3, confirmedBy: 'PAYMENT', checkedInAt: null, staffNotes: null });
      expect(reservation.guestName).to.match(/^Ms Guest 9\d+$/);
      expect(reservation.offer).to.include({ id: booking.offerId });
      expect(reservation.table).to.include({ code: 'V7', zone: 'VIP' });
      expect(reservation.event).to.include({ id: booking.eventId, status: 'SCHEDULED' });
      expect(reservation.payment).to.deep.equal({ paid: true, totalVnd: booking.totalVnd, paidVnd: booking.totalVnd, dueVnd: 0, payLaterMethod: null });
      expect(res.body).to.deep.include({ inside: false, entry: { ok: true, reason: null }, exit: { ok: false, reason: 'not_checked_in' }, history: [] });
      // Issue 32 §4.3 changed this: the contact the booking was made with (name, e-mail, phone) and the CRM record
      // beside it reach the door; nothing else personal (no guest note, no token).
      expect(reservation.bookedContact).to.include({ honorific: 'Ms', phone: '+84 90 123 4567' });
      expect(`Ms ${reservation.bookedContact.name}`).to.equal(reservation.guestName);
      expect(reservation.bookedContact.email).to.match(/^guest9\d+@example\.com$/);
      expect(Object.keys(reservation.crmCustomer).sort()).to.deep.equal(['email', 'honorific', 'id', 'isDeleted', 'name', 'phone']);
      expect(res.text).not.to.include(booking.token);
    });

    it('shows the guest as booked, not the CRM record their e-mail belongs to; the CRM record beside it, labelled', async () => {
      // Lan booked first: her contact made the CRM customer record of lan@example.com.
      const lan = await doorBooking(spec.server, { contact: { honorific: 'Ms', name: 'Nguyễn Thị Lan', email: 'lan@example.com', phone: '+84 90 111 1111', locale: 'vi' } });
      const customer = await spec.server.db.knex('customers').where({ email_normalized: 'lan@example.com' }).first('id');
      // A stranger books with Lan's e-mail address under another name: the CRM record stays Lan's.
      const stranger = await doorBooking(spec.server, { contact: { name: 'Mallory Stranger', email: 'LAN@example.com', phone: '+84 90 999 9999', locale: 'en' } });
      for (const path of [`/api/check-ins/${stranger.id}`, `/api/check-ins/lookup?token=${stranger.token}`]) {
        const res = await staff().get(path);
        expect(res.status).to.equal(200);
        const { reservation } = res.body;
        expect(reservation.guestName, path).to.equal('Mallory Stranger');
        expect(reservation.bookedContact).to.deep.equal({ honorific: null, name: 'Mallory Stranger', email: 'LAN@example.com', phone: '+84 90 999 9999' });
        expect(reservation.crmCustomer).to.deep.equal({ id: customer.id, honorific: 'Ms', name: 'Nguyễn Thị Lan', email: 'lan@example.com', phone: '+84 90 111 1111', isDeleted: false });
      }
      // The redeem answer shows the same guest.
      const redeemed = await redeem({ token: stranger.token });
      expect(redeemed.body.checkIn.result).to.equal('ok');
      expect(redeemed.body.reservation).to.deep.include({ guestName: 'Mallory Stranger' });
      expect(redeemed.body.reservation.crmCustomer.name).to.equal('Nguyễn Thị Lan');
      // Lan's own booking is hers, by name and record.
      const own = (await staff().get(`/api/check-ins/${lan.id}`)).body.reservation;
      expect(own.guestName).to.equal('Ms Nguyễn Thị Lan');
      expect(own.bookedContact.email).to.equal('lan@example.com');
    });

    it('finds the reservation by its QR token, normalized: whitespace and newlines, = padding, standard base64 letters; never by another case', async () => {
      const booking = await doorBooking(spec.server);
      const byId = (await staff().get(`/api/check-ins/${booking.id}`)).body;
      const standard = booking.token.replace(/-/g, '+').replace(/_/g, '/');
      for (const typed of [booking.token, ` ${booking.token}\r\n`, `${booking.token.slice(0, 20)} ${booking.token.slice(20)}\t`, `${booking.token}=`, standard]) {
        const res = await staff().get(`/api/check-ins/lookup?token=${encodeURIComponent(typed)}`);
        expect(res.status, JSON.stringify(typed)).to.equal(200);
        expect(res.body).to.deep.equal(byId);
      }
      const swapped = [...booking.token].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
      expect((await staff().get(`/api/check-ins/lookup?token=${encodeURIComponent(swapped)}`)).status).to.equal(404);
      expect((await staff().get(`/api/check-ins/${booking.id.toUpperCase()}`)).body).to.deep.equal(byId);
    });

    it('is 404 for an unknown id, a token that opens nothing, or one that is not a token; 400 for a bad id, lookup without token, or an id with a token', async () => {
      const booking = await doorBooking(spec.server);
      expect((await staff().get(`/api/check-ins/${MISSING_ID}`)).status).to.equal(404);
      expect((await staff().get(`/api/check-ins/lookup?token=${'A'.repeat(43)}`)).status).to.equal(404);
      expect((await staff().get('/api/check-ins/lookup?token=not-a-token')).status).to.equal(404);
      const bad = await staff().get('/api/check-ins/VN-7K3Q9P');
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0].path).to.equal('path/id');
      const missing = await staff().get('/api/check-ins/lookup');
      expect(missing.status).to.equal(400);
      expect(missing.body.errors).to.deep.equal([{ path: 'query/token', message: 'is required with lookup', code: 'required' }]);
      const both = await staff().get(`/api/check-ins/${booking.id}?token=${booking.token}`);
      expect(both.status).to.equal(400);
      expect(both.body.errors[0]).to.include({ path: 'query/token', code: 'not_allowed' });
      expect((await staff().get(`/api/check-ins/lookup?token=${'x'.repeat(300)}`)).status).to.equal(400);
      expect((await staff().get(`/api/check-ins/${booking.id}?showEventId=nope`)).status).to.equal(400);
    });

    it('reads wrong_event for a door serving another event, and the history oldest first', async () => {
      const booking = await doorBooking(spec.server);
      const other = await doorBooking(spec.server);
      const res = await staff().get(`/api/check-ins/${booking.id}?showEventId=${other.eventId}`);
      expect(res.body.entry).to.deep.equal({ ok: false, reason: 'wrong_event' });
      expect((await staff().get(`/api/check-ins/${booking.id}?showEventId=${booking.eventId}`)).body.entry).to.deep.equal({ ok: true, reason: null });
      await redeem({ reservationId: booking.id, showEventId: other.eventId });
      await redeem({ token: booking.token });
      await redeem({ token: booking.token, type: 'EXIT' });
      const after = await staff().get(`/api/check-ins/lookup?token=${booking.token}`);
      expect(after.body.history.map((h: any) => [h.type, h.result, h.reason, h.identifiedBy])).to.deep.equal([
        ['ENTRY', 'refused', 'wrong_event', 'ID'],
        ['ENTRY', 'ok', null, 'TOKEN'],
        ['EXIT', 'ok', null, 'TOKEN'],
      ]);
      expect(after.body).to.deep.include({ inside: false, entry: { ok: true, reason: null }, exit: { ok: false, reason: 'not_checked_in' } });
    });
  });

  describe('GET /api/check-ins/by-token/{token} (deprecated)', () => {
    it('answers what its successor answers, with Deprecation and a successor-version Link', async () => {
      const booking = await doorBooking(spec.server);
      const successor = await staff().get(`/api/check-ins/lookup?token=${booking.token}`);
      const res = await staff().get(`/api/check-ins/by-token/${encodeURIComponent(` ${booking.token}\n`)}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(successor.body);
      expect(res.headers.get('deprecation')).to.equal(`@${Date.UTC(2026, 10, 27) / 1000}`);
      expect(res.headers.get('link')).to.equal('</api/check-ins/lookup>; rel="successor-version"');
      expect(successor.headers.get('deprecation')).to.equal(null);
      const unknown = await staff().get(`/api/check-ins/by-token/${'B'.repeat(43)}`);
      expect(unknown.status).to.equal(404);
      expect(unknown.headers.get('link')).to.equal('</api/check-ins/lookup>; rel="successor-version"');
      expect((await staff().get(`/api/check-ins/by-token/${booking.token}?showEventId=${MISSING_ID}`)).body.entry.reason).to.equal('wrong_event');
    });

    it('logs the route template, never the token: access lines of 200, 401, 404 and 405, and the policy line', async () => {
      const booking = await doorBooking(spec.server);
      spec.server.logs.length = 0;
      const path = `/api/check-ins/by-token/${booking.token}`;
      expect((await staff().get(path)).status).to.equal(200);
      expect((await spec.as({}).get(path)).status).to.equal(401);
      expect((await staff().get(`/api/check-ins/by-token/${booking.token.slice(1)}x`)).status).to.equal(404);
      expect((await spec.server.request('DELETE', path, { headers: spec.callers.staff })).status).to.equal(405);
      const text = JSON.stringify(spec.server.logs);
      expect(text.includes(booking.token), text.slice(0, 3000)).to.equal(false);
      expect(text.includes(booking.token.slice(1, 30))).to.equal(false);
      const access = spec.server.logs.filter((line) => line.msg === 'request');
      expect(access.map((line) => [line.path, line.status])).to.deep.equal([
        ['/api/check-ins/by-token/{token}', 200],
        ['/api/check-ins/by-token/{token}', 401],
        ['/api/check-ins/by-token/{token}', 404],
        ['/api/check-ins/by-token/{token}', 405],
      ]);
      // PUBLIC_API_POLICY_MODE=report (the default) writes a policy line for the anonymous call: by template too.
      const policy = spec.server.logs.filter((line) => String(line.msg).includes('[public-api-policy]'));
      expect(policy).to.have.length(1);
      expect(policy[0].path).to.equal('/api/check-ins/by-token/{token}');
      // Only the deprecated route is marked in the contract; other routes still log their real path.
      expect(contract.operations.filter((op) => op.logTemplate).map((op) => op.operationId)).to.deep.equal(['getCheckInByToken']);
      spec.server.logs.length = 0;
      await staff().get(`/api/check-ins/${booking.id}`);
      expect(spec.server.logs.find((line) => line.msg === 'request')?.path).to.equal(`/api/check-ins/${booking.id}`);
    });
  });

  describe('POST /api/check-ins', () => {
    it('ENTRY on a confirmed reservation checks it in (CHECKED_IN, checkedInAt) and records who did it', async () => {
      const booking = await doorBooking(spec.server);
      const member = await buildMemberSession('member');
      const n = nonce();
      const res = await spec.as(cookieHeader(member.token)).post('/api/check-ins', { token: `${booking.token}\n`, type: 'ENTRY', nonce: n, showEventId: booking.eventId });
      expect(res.status).to.equal(200);
      expect(res.headers.get('idempotent-replayed')).to.equal(null);
      expect(res.body.checkIn).to.deep.include({ nonce: n, type: 'ENTRY', result: 'ok', reason: null, identifiedBy: 'TOKEN', reservationId: booking.id, showEventId: booking.eventId, operator: member.account.id });
      expect(res.body.reservation).to.include({ id: booking.id, status: 'CHECKED_IN' });
      expect(res.body.reservation.checkedInAt).to.be.a('string');
      const row = await spec.server.db.knex('reservations').where({ id: booking.id }).first();
      expect(row.status).to.equal('CHECKED_IN');
      expect(row.checked_in_at).to.be.instanceOf(Date);
      const [recorded] = await rows({ reservation_id: booking.id });
      expect(recorded).to.include({ type: 'ENTRY', result: 'ok', reason: null, nonce: n, identified_by: 'TOKEN', operator: res.body.checkIn.operator });
      expect(JSON.stringify(recorded)).not.to.include(booking.token);
      const lookup = await staff().get(`/api/check-ins/${booking.id}`);
      expect(lookup.body).to.deep.include({ inside: true, entry: { ok: false, reason: 'already_checked_in' }, exit: { ok: true, reason: null } });
    });

    it('EXIT only for a guest inside; a guest who left may enter again (a re-entry changes nothing else)', async () => {
      const booking = await doorBooking(spec.server);
      const exitFirst = await redeem({ reservationId: booking.id, type: 'EXIT' });
      expect(exitFirst.body.checkIn).to.include({ result: 'refused', reason: 'not_checked_in' });
      expect((await redeem({ reservationId: booking.id })).body.checkIn.result).to.equal('ok');
      const checkedInAt = (await spec.server.db.knex('reservations').where({ id: booking.id }).first()).checked_in_at;
      expect((await redeem({ reservationId: booking.id })).body.checkIn.reason).to.equal('already_checked_in');
      expect((await redeem({ reservationId: booking.id, type: 'EXIT' })).body.checkIn.result).to.equal('ok');
      expect((await redeem({ reservationId: booking.id, type: 'EXIT' })).body.checkIn.reason).to.equal('not_checked_in');
      const again = await redeem({ reservationId: booking.id });
      expect(again.body.checkIn.result).to.equal('ok');
      expect(again.body.reservation.status).to.equal('CHECKED_IN');
      const row = await spec.server.db.knex('reservations').where({ id: booking.id }).first();
      expect(row.checked_in_at.getTime()).to.equal(checkedInAt.getTime());
      expect((await rows({ reservation_id: booking.id })).map((r) => `${r.type}:${r.reason ?? r.result}`)).to.deep.equal([
        'EXIT:not_checked_in',
        'ENTRY:ok',
        'ENTRY:already_checked_in',
        'EXIT:ok',
        'EXIT:not_checked_in',
        'ENTRY:ok',
      ]);
    });

    it('refuses with every reason, records each attempt, and changes no reservation', async () => {
      const knex = spec.server.db.knex;
      const held = await doorBooking(spec.server, { confirm: false });
      const expired = await doorBooking(spec.server, { confirm: false });
      await knex('reservations').where({ id: expired.id }).update({ hold_expires_at: new Date(Date.now() - 1000) });
      const cancelled = await doorBooking(spec.server);
      await inTransition(spec.server.app.context, 'SYSTEM', (ctx) => cancelReservation(ctx, cancelled.id, { by: 'STAFF' }));
      const eventCancelled = await doorBooking(spec.server);
      await knex('show_events').where({ id: eventCancelled.eventId }).update({ status: 'CANCELLED', cancelled_at: new Date(), sales_open: false });
      const noShow = await doorBooking(spec.server);
      await knex('reservations').where({ id: noShow.id }).update({ status: 'NO_SHOW', no_show_at: new Date() });
      const elsewhere = await doorBooking(spec.server);
      const tomorrow = await doorBooking(spec.server, { startsAt: new Date(Date.now() + 2 * 86_400_000) });
      const yesterday = await doorBooking(spec.server, { startsAt: new Date(Date.now() - 2 * 86_400_000) });
      const inside = await doorBooking(spec.server);
      expect((await redeem({ token: inside.token })).body.checkIn.result).to.equal('ok');

      const cases: Array<[Record<string, unknown>, string]> = [
        [{ reservationId: MISSING_ID }, 'not_found'],
        [{ token: 'A'.repeat(43) }, 'not_found'],
        [{ token: 'not a token at all' }, 'not_found'],
        [{ reservationId: held.id }, 'unpaid'],
        [{ reservationId: expired.id }, 'unpaid'],
        [{ reservationId: cancelled.id }, 'cancelled'],
        [{ token: cancelled.token }, 'cancelled'],
        [{ reservationId: eventCancelled.id }, 'cancelled'],
        [{ reservationId: noShow.id }, 'no_show'],
        [{ reservationId: elsewhere.id, showEventId: inside.eventId }, 'wrong_event'],
        [{ reservationId: elsewhere.id, showEventId: MISSING_ID }, 'wrong_event'],
        [{ reservationId: tomorrow.id }, 'not_today'],
        [{ reservationId: yesterday.id }, 'not_today'],
        [{ token: inside.token }, 'already_checked_in'],
        [{ reservationId: held.id, type: 'EXIT' }, 'unpaid'],
        [{ reservationId: tomorrow.id, type: 'EXIT' }, 'not_checked_in'],
      ];
      const before = await knex('reservations').select('id', 'status', 'checked_in_at').orderBy('id');
      for (const [body, reason] of cases) {
        const res = await redeem(body);
        expect(res.status, JSON.stringify(body)).to.equal(200);
        expect(res.body.checkIn, JSON.stringify(body)).to.include({ result: 'refused', reason });
        expect(res.body.reservation === null, JSON.stringify(body)).to.equal(reason === 'not_found');
      }
      expect(await knex('reservations').select('id', 'status', 'checked_in_at').orderBy('id')).to.deep.equal(before);
      const refused = await knex('check_ins').where({ result: 'refused' }).select('reason', 'reservation_id', 'show_event_id');
      for (const [, reason] of cases) expect(refused.some((r) => r.reason === reason), reason).to.equal(true);
      expect(refused.filter((r) => r.reason === 'not_found').every((r) => r.reservation_id === null)).to.equal(true);
      // An unknown event is judged wrong_event but not stored as a reference.
      expect(refused.filter((r) => r.reason === 'wrong_event').map((r) => r.show_event_id)).to.include(null);
      // The door's preview agrees with the refusals.
      expect((await staff().get(`/api/check-ins/${held.id}`)).body.entry).to.deep.equal({ ok: false, reason: 'unpaid' });
      expect((await staff().get(`/api/check-ins/${noShow.id}`)).body.entry).to.deep.equal({ ok: false, reason: 'no_show' });
      expect((await staff().get(`/api/check-ins/${tomorrow.id}`)).body.entry).to.deep.equal({ ok: false, reason: 'not_today' });
    });

    it('admits a reservation confirmed by staff without a payment (pay at the venue): not paid, the total due', async () => {
      const booking = await doorBooking(spec.server, { confirm: 'STAFF', paid: false });
      const lookup = await staff().get(`/api/check-ins/${booking.id}`);
      expect(lookup.body.reservation).to.deep.include({ confirmedBy: 'STAFF', payment: { paid: false, totalVnd: booking.totalVnd, paidVnd: 0, dueVnd: booking.totalVnd, payLaterMethod: null } });
      expect(lookup.body.entry).to.deep.equal({ ok: true, reason: null });
      expect((await redeem({ reservationId: booking.id })).body.checkIn.result).to.equal('ok');
    });

    it('answers a retried nonce with the first result (Idempotent-Replayed), records nothing new; another scan with it is 422', async () => {
      const booking = await doorBooking(spec.server);
      const body = { token: booking.token, type: 'ENTRY', nonce: nonce() };
      const first = await staff().post('/api/check-ins', body);
      const again = await staff().post('/api/check-ins', { ...body, token: ` ${booking.token}\n` });
      expect(again.status).to.equal(200);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      expect(again.body.checkIn.result).to.equal('ok');
      expect(await rows({ reservation_id: booking.id })).to.have.length(1);
      // A refusal is replayed as a refusal, even when the state has changed since.
      const refusedNonce = nonce();
      const refused = await staff().post('/api/check-ins', { reservationId: booking.id, type: 'EXIT', nonce: refusedNonce, showEventId: MISSING_ID });
      expect(refused.body.checkIn.reason).to.equal('wrong_event');
      const replayed = await staff().post('/api/check-ins', { reservationId: booking.id, type: 'EXIT', nonce: refusedNonce, showEventId: MISSING_ID });
      expect(replayed.body.checkIn).to.deep.equal(refused.body.checkIn);
      const notFound = { reservationId: MISSING_ID, type: 'ENTRY', nonce: nonce() };
      expect((await staff().post('/api/check-ins', notFound)).body.checkIn.reason).to.equal('not_found');
      expect((await staff().post('/api/check-ins', notFound)).headers.get('idempotent-replayed')).to.equal('true');
      expect(await rows({ nonce: notFound.nonce })).to.have.length(1);
      for (const other of [{ ...body, type: 'EXIT' }, { ...body, token: undefined, reservationId: booking.id }, { ...body, showEventId: booking.eventId }]) {
        const reused = await staff().post('/api/check-ins', other);
        expect(reused.status, JSON.stringify(other)).to.equal(422);
        expect(reused.body.code).to.equal('nonce_reused');
        expect(reused.body.errors[0].path).to.equal('body/nonce');
      }
      expect(await rows({ reservation_id: booking.id })).to.have.length(2);
    });

    it('under concurrency: one nonce sent ten times at once records one attempt; ten scans with their own nonces check in once @db', async () => {
      const booking = await doorBooking(spec.server);
      const body = { reservationId: booking.id, type: 'ENTRY', nonce: nonce() };
      const same = await Promise.all(Array.from({ length: 10 }, () => staff().post('/api/check-ins', body)));
      expect(same.map((r) => r.status)).to.deep.equal(Array(10).fill(200));
      expect(new Set(same.map((r) => r.body.checkIn.id)).size).to.equal(1);
      expect(same.filter((r) => r.headers.get('idempotent-replayed') !== 'true')).to.have.length(1);
      expect(same.every((r) => r.body.checkIn.result === 'ok')).to.equal(true);
      expect(await rows({ reservation_id: booking.id })).to.have.length(1);

      const lost = { reservationId: MISSING_ID, type: 'ENTRY', nonce: nonce() };
      const unknown = await Promise.all(Array.from({ length: 6 }, () => staff().post('/api/check-ins', lost)));
      expect(new Set(unknown.map((r) => r.body.checkIn.id)).size).to.equal(1);
      expect(await rows({ nonce: lost.nonce })).to.have.length(1);

      // One nonce on two reservations at once: one is recorded, the other rolls back whole (its reservation too).
      const [left, right] = [await doorBooking(spec.server), await doorBooking(spec.server)];
      const shared = nonce();
      const raced = await Promise.all([left, right].map((b) => staff().post('/api/check-ins', { reservationId: b.id, type: 'ENTRY', nonce: shared })));
      expect(raced.map((r) => r.status).sort()).to.deep.equal([200, 422]);
      expect(await rows({ nonce: shared })).to.have.length(1);
      const statuses = await spec.server.db.knex('reservations').whereIn('id', [left.id, right.id]).pluck('status');
      expect(statuses.sort()).to.deep.equal(['CHECKED_IN', 'CONFIRMED']);

      const second = await doorBooking(spec.server);
      const scans = await Promise.all(Array.from({ length: 10 }, () => redeem({ token: second.token })));
      expect(scans.filter((r) => r.body.checkIn.result === 'ok')).to.have.length(1);
      expect(scans.filter((r) => r.body.checkIn.reason === 'already_checked_in')).to.have.length(9);
      expect(await rows({ reservation_id: second.id })).to.have.length(10);
    });

    it('400 for neither or both of reservationId and token, a bad type, nonce or id, or an unknown field', async () => {
      const booking = await doorBooking(spec.server);
      const neither = await staff().post('/api/check-ins', { type: 'ENTRY', nonce: nonce() });
      expect(neither.status).to.equal(400);
      expect(neither.body.errors.map((e: any) => e.path)).to.deep.equal(['body/reservationId', 'body/token']);
      expect((await redeem({ reservationId: booking.id, token: booking.token })).status).to.equal(400);
      expect((await redeem({ reservationId: booking.id, type: 'LEAVE' })).status).to.equal(400);
      expect((await redeem({ reservationId: booking.id, nonce: 'short' })).status).to.equal(400);
      expect((await redeem({ reservationId: booking.id, nonce: 'has spaces in it' })).status).to.equal(400);
      expect((await redeem({ reservationId: 'VN-7K3Q9P' })).status).to.equal(400);
      expect((await redeem({ reservationId: booking.id, extra: 1 })).status).to.equal(400);
      expect((await staff().post('/api/check-ins', { reservationId: booking.id, type: 'ENTRY' })).status).to.equal(400);
      expect(await rows()).to.satisfy((list: unknown[]) => list.every((r: any) => r.reservation_id !== booking.id));
    });

    it('records an API key by its key id and a superuser token by its position, never a name', async () => {
      const { apiKey, key } = await buildApiKey({ name: 'Door scanner — Lan', permissions: permissionMap('check-ins:redeem') });
      const first = await doorBooking(spec.server);
      const byKey = await redeem({ reservationId: first.id }, { 'x-api-key': key });
      expect(byKey.body.checkIn.operator).to.equal(`api-key:${apiKey.id}`);
      const second = await doorBooking(spec.server);
      const byToken = await redeem({ reservationId: second.id }, spec.callers.superuser);
      expect(byToken.body.checkIn.operator).to.equal('superuser-token:0');
    });

    it('the event logistics count the checked-in guests and parties', async () => {
      const booking = await doorBooking(spec.server, { guests: 3 });
      const logistics = () => staff().get(`/api/show-events/${booking.eventId}/logistics`);
      expect((await logistics()).body.parties).to.deep.equal({ expected: 1, checkedIn: 0 });
      await redeem({ reservationId: booking.id });
      const after = (await logistics()).body;
      expect(after.guests).to.include({ expected: 3, checkedIn: 3 });
      expect(after.parties).to.deep.equal({ expected: 1, checkedIn: 1 });
      expect(after.offers.find((o: any) => o.offerId === booking.offerId)).to.include({ guests: 3, checkedIn: 3 });
    });
  });
});

describe('checkIns: operator check-in completed (business event)', () => {
  let server: TestServer;
  let posthog: FakePostHog;
  let staffHeaders: Record<string, string>;
  let staffAccount: string;
  before(async () => {
    posthog = await startFakePostHog();
    server = await startTestServer({ config: { trustProxy: true, analyticsEnabled: true, posthogApiKey: 'phc_test', posthogHost: posthog.url } });
    const session = await buildMemberSession('member');
    staffHeaders = cookieHeader(session.token);
    staffAccount = session.account.id;
  });
  after(async () => {
    await server.close();
    await posthog.close();
  });

  it('is sent after commit for a check-in only, with checked_in_by the account id and no personal data', async () => {
    const booking = await doorBooking(server);
    const post = (body: Record<string, unknown>) => server.request('POST', '/api/check-ins', { headers: staffHeaders, body: { type: 'ENTRY', nonce: `n-${randomUUID()}`, ...body } });
    expect((await post({ reservationId: booking.id, showEventId: MISSING_ID })).body.checkIn.reason).to.equal('wrong_event');
    expect((await post({ token: booking.token })).body.checkIn.result).to.equal('ok');
    expect((await post({ token: booking.token })).body.checkIn.reason).to.equal('already_checked_in');
    expect((await post({ token: booking.token, type: 'EXIT' })).body.checkIn.result).to.equal('ok');
    expect((await post({ token: booking.token })).body.checkIn.result).to.equal('ok');
    await server.app.context.analytics.flush();
    const events = capturedEvents(posthog.requests).filter((e) => e.event === 'operator check-in completed');
    expect(events).to.have.length(1);
    expect(events[0].properties).to.include({ checked_in_by: staffAccount, reservation_reference: booking.reference, guest_count: 2 });
    const text = JSON.stringify(events[0]);
    for (const personal of ['@example.com', 'Guest 9', '+84', booking.token]) expect(text.includes(personal), personal).to.equal(false);
  });
});

describe('checkIns: the rules on their own', () => {
  const zone = 'Asia/Ho_Chi_Minh';
  const local = (iso: string) => new Date(`${iso}+07:00`);

  it('a door day runs 06:00 to 06:00 local: late arrivals after midnight and early ones before a late show are today', () => {
    expect(doorDay(local('2026-12-05T19:30:00'), zone)).to.equal('2026-12-05');
    expect(doorDay(local('2026-12-06T05:59:00'), zone)).to.equal('2026-12-05');
    expect(doorDay(local('2026-12-06T06:00:00'), zone)).to.equal('2026-12-06');
    expect(isDoorDay(local('2026-12-05T23:30:00'), local('2026-12-06T00:40:00'), zone)).to.equal(true);
    expect(isDoorDay(local('2026-12-06T00:30:00'), local('2026-12-05T23:50:00'), zone)).to.equal(true);
    expect(isDoorDay(local('2026-12-05T19:30:00'), local('2026-12-05T06:00:00'), zone)).to.equal(true);
    expect(isDoorDay(local('2026-12-05T19:30:00'), local('2026-12-05T05:59:00'), zone)).to.equal(false);
    expect(isDoorDay(local('2026-12-05T19:30:00'), local('2026-12-06T06:01:00'), zone)).to.equal(false);
    // The zone decides, not UTC: 19:30 in Ho Chi Minh City is 12:30 UTC the same day; in UTC the 23:30 show is the next day's.
    expect(isDoorDay(new Date('2026-12-05T16:30:00Z'), new Date('2026-12-05T23:00:00Z'), zone)).to.equal(false);
    expect(isDoorDay(new Date('2026-12-05T16:30:00Z'), new Date('2026-12-05T22:00:00Z'), zone)).to.equal(true);
  });

  it('normalizes a token: whitespace, padding and standard base64 letters; never the case; anything else is none', () => {
    const token = 'Ab-_0123456789abcdefghijklmnopqrstuvwxyzABC';
    expect(token).to.have.length(43);
    expect(normalizeToken(token)).to.equal(token);
    expect(normalizeToken(` \t${token.slice(0, 10)} ${token.slice(10)}\r\n`)).to.equal(token);
    expect(normalizeToken(`${token}=`)).to.equal(token);
    expect(normalizeToken(token.replace('-', '+').replace('_', '/'))).to.equal(token);
    expect(normalizeToken(token.toUpperCase())).to.equal(token.toUpperCase()).and.not.equal(token);
    expect(normalizeToken(token.slice(1))).to.equal(undefined);
    expect(normalizeToken(`${token}x`)).to.equal(undefined);
    expect(normalizeToken(`${token.slice(1)}!`)).to.equal(undefined);
    expect(normalizeToken('')).to.equal(undefined);
  });
});
