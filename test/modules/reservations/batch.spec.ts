import { expect } from 'chai';
import { countRows } from '../../helpers/accounts.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { guestHold } from './helpers.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';

/** POST /api/sudo/batch-update-reservation-statuses (spec §4.5): Superuser, legal moves only, one transaction. */
describe('reservations: batch status update (superuser)', () => {
  const spec = catalogSpec({ config: { trustProxy: true } });
  const as = spec.as;
  const knex = () => spec.server.db.knex;
  const PATH = '/api/sudo/batch-update-reservation-statuses';
  const batch = (body: Record<string, unknown>) => as(spec.callers.superuser).post(PATH, body);
  const statuses = async (ids: string[]) => {
    const rows = await knex()('reservations').whereIn('id', ids).select('id', 'status');
    return ids.map((id) => rows.find((r: { id: string }) => r.id === id)?.status);
  };

  it('is superuser only: 401 anonymous, 403 staff and admin; no API key, whatever its permissions (a sudo operation)', async () => {
    const { event, offer } = await bookableEvent();
    const id = await guestHold(spec.server, event, offer);
    const body = { ids: [id], targetStatus: 'CANCELLED', dryRun: false };
    expect((await as({}).post(PATH, body)).status).to.equal(401);
    expect((await as(spec.callers.staff).post(PATH, body)).status).to.equal(403);
    expect((await as(spec.callers.admin).post(PATH, body)).status).to.equal(403);
    const keyed = await as(await apiKeyWith('reservations:batch-update', 'reservations:write', 'reservations:cancel')).post(PATH, body);
    expect(keyed.status).to.equal(403);
    expect(keyed.body.code).to.equal('api_key_not_allowed');
    expect(await statuses([id])).to.deep.equal(['HELD']);
    expect((await batch({ ...body, dryRun: true })).status).to.equal(200);
  });

  it('400 for a bad body; 422 selection_required for both or neither of ids and filter', async () => {
    expect((await batch({ ids: [MISSING_ID], targetStatus: 'EXPIRED', dryRun: true })).status).to.equal(400);
    expect((await batch({ ids: [MISSING_ID], targetStatus: 'CANCELLED' })).status).to.equal(400);
    expect((await batch({ ids: [], targetStatus: 'CANCELLED', dryRun: true })).status).to.equal(400);
    expect((await batch({ filter: {}, targetStatus: 'CANCELLED', dryRun: true })).status).to.equal(400);
    const both = await batch({ ids: [MISSING_ID], filter: { status: 'HELD' }, targetStatus: 'CANCELLED', dryRun: true });
    expect(both.status).to.equal(422);
    expect(both.body.code).to.equal('selection_required');
    expect((await batch({ targetStatus: 'CANCELLED', dryRun: true })).body.code).to.equal('selection_required');
  });

  it('a dry run reports each move and writes nothing; the real run makes the legal ones and reports the others', async () => {
    const { event, offer } = await bookableEvent();
    const held = await guestHold(spec.server, event, offer, 2, contact(1));
    const confirmed = await guestHold(spec.server, event, offer, 2, contact(2));
    const expired = await guestHold(spec.server, event, offer, 2, contact(3));
    const cancelled = await guestHold(spec.server, event, offer, 2, contact(4));
    await as(spec.callers.staff).post(`/api/reservations/${confirmed}/confirm`);
    await as(spec.callers.staff).post(`/api/reservations/${cancelled}/cancel`, {});
    await knex()('reservations').where({ id: expired }).update({ hold_expires_at: new Date(Date.now() - 1000) });
    const ids = [held, confirmed, expired, cancelled, MISSING_ID];
    const mails = await countRows(knex(), 'email_messages');

    const dry = await batch({ ids, targetStatus: 'CONFIRMED', dryRun: true });
    expect(dry.status, JSON.stringify(dry.body)).to.equal(200);
    const reference = async (id: string) => (await knex()('reservations').where({ id }).first('reference')).reference;
    expect(dry.body).to.deep.include({ dryRun: true, targetStatus: 'CONFIRMED', total: 5, changed: 1, failed: 3 });
    expect(dry.body.items).to.deep.equal([
      { id: held, reference: await reference(held), from: 'HELD', to: 'CONFIRMED', ok: true, changed: true, code: null },
      { id: confirmed, reference: await reference(confirmed), from: 'CONFIRMED', to: 'CONFIRMED', ok: true, changed: false, code: null },
      { id: expired, reference: await reference(expired), from: 'EXPIRED', to: 'CONFIRMED', ok: false, changed: false, code: 'illegal_transition' },
      { id: cancelled, reference: await reference(cancelled), from: 'CANCELLED', to: 'CONFIRMED', ok: false, changed: false, code: 'illegal_transition' },
      { id: MISSING_ID, reference: null, from: null, to: 'CONFIRMED', ok: false, changed: false, code: 'not_found' },
    ]);
    expect(await statuses([held, confirmed, expired, cancelled])).to.deep.equal(['HELD', 'CONFIRMED', 'HELD', 'CANCELLED']);
    expect(await countRows(knex(), 'email_messages'), 'a dry run queues no e-mail').to.equal(mails);

    const real = await batch({ ids, targetStatus: 'CONFIRMED', dryRun: false });
    expect(real.body.items).to.deep.equal(dry.body.items.map((item: Record<string, unknown>) => item));
    expect(real.body.dryRun).to.equal(false);
    expect(await statuses([held, confirmed, expired, cancelled])).to.deep.equal(['CONFIRMED', 'CONFIRMED', 'HELD', 'CANCELLED']);
    expect(await knex()('reservations').where({ id: held }).first('confirmed_by')).to.deep.equal({ confirmed_by: 'STAFF' });
    expect(await countRows(knex(), 'email_messages'), 'one confirmation e-mail').to.equal(mails + 1);
  });

  it('chooses by filter (event, status as read, local date) and cancels with the reason; an illegal move leaves its row as it was', async () => {
    const { event, offer, startsAt } = await bookableEvent();
    const other = await bookableEvent();
    const a = await guestHold(spec.server, event, offer, 2, contact(11));
    const b = await guestHold(spec.server, event, offer, 2, contact(12));
    const c = await guestHold(spec.server, event, offer, 2, contact(13));
    const elsewhere = await guestHold(spec.server, other.event, other.offer, 2, contact(14));
    await as(spec.callers.staff).post(`/api/reservations/${b}/confirm`);
    await knex()('reservations').where({ id: c }).update({ hold_expires_at: new Date(Date.now() - 1000) });

    const byStatus = await batch({ filter: { eventId: event.id, status: 'HELD' }, targetStatus: 'CANCELLED', reason: 'Overbooked', dryRun: false });
    expect(byStatus.body.items.map((item: { id: string }) => item.id)).to.deep.equal([a]);
    expect(await knex()('reservations').where({ id: a }).first('status', 'cancelled_by', 'cancellation_reason')).to.deep.equal({ status: 'CANCELLED', cancelled_by: 'STAFF', cancellation_reason: 'Overbooked' });

    const zone = spec.server.config.venueTimezone;
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(startsAt);
    const noShows = await batch({ filter: { eventId: event.id, date }, targetStatus: 'NO_SHOW', dryRun: false });
    const codes = Object.fromEntries(noShows.body.items.map((item: { id: string; code: string | null }) => [item.id, item.code]));
    expect(codes).to.deep.equal({ [a]: 'illegal_transition', [b]: 'event_not_started', [c]: 'illegal_transition' });
    expect(await statuses([a, b, c, elsewhere])).to.deep.equal(['CANCELLED', 'CONFIRMED', 'HELD', 'HELD']);

    const expiredOnes = await batch({ filter: { status: 'EXPIRED', eventId: event.id }, targetStatus: 'CANCELLED', dryRun: true });
    expect(expiredOnes.body.items).to.have.length(1);
    expect(expiredOnes.body.items[0]).to.include({ id: c, from: 'EXPIRED', ok: false, code: 'reservation_not_cancellable' });
  });

  it('a failure that is not a refused move rolls the whole batch back', async () => {
    const { event, offer } = await bookableEvent();
    const a = await guestHold(spec.server, event, offer, 2, contact(21));
    const b = await guestHold(spec.server, event, offer, 2, contact(22));
    // The second confirmation e-mail cannot be rendered (an address the ledger refuses is a 422, not a 409).
    // (The e-mail goes to the reservation's own contact snapshot, issue 21.)
    await knex()('reservations').where({ id: b }).update({ contact_email: 'not an address' });
    const res = await batch({ ids: [a, b], targetStatus: 'CONFIRMED', dryRun: false });
    expect(res.status).to.equal(422);
    expect(await statuses([a, b])).to.deep.equal(['HELD', 'HELD']);
    expect(await countRows(knex(), 'email_messages', { reservation_id: a })).to.equal(0);
  });
});
