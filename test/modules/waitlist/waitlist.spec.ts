import { expect } from 'chai';
import { expireOffers } from '../../../server/modules/waitlist/commands/expireOffers.ts';
import { notifyNextWaiting } from '../../../server/modules/waitlist/commands/notifyNextWaiting.ts';
import { WAITLIST_NOTIFY_NEXT_QUEUE } from '../../../server/modules/waitlist/queues.ts';
import { jobs as waitlistJobs } from '../../../server/modules/waitlist/jobs.ts';
import { deliveredNow } from '../../helpers/mail.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';

/**
 * The waiting list (issue 13): joining a sold-out event (public), staff management, offers that hold seats in
 * the availability, booking through the offer link converting the entry, and the jobs that offer freed seats in
 * joining order and expire offers.
 */
describe('waitlist: /api/public/waitlist, /api/waitlist and offers', () => {
  const spec = catalogSpec({ config: { trustProxy: true, waitlistOfferHours: 24, waitlistOfferUrl: 'https://venue.example/waitlist-offer' } });
  const as = spec.as;
  const staff = () => as(spec.callers.staff);
  let ip = 1;
  const guest = () => as({ 'x-forwarded-for': `100.64.${(ip >> 8) & 255}.${ip++ & 255}` });
  const join = (eventSlug: string, guestCount: number, n: number, extra: Record<string, unknown> = {}) =>
    guest().post('/api/public/waitlist', { eventSlug, guestCount, name: `Waiting ${n}`, email: `wait${n}@example.com`, locale: 'en', ...extra });
  /** Joins, then reads the stored entry's id (the guest's answer carries none). */
  const joined = async (eventSlug: string, guestCount: number, n: number) => {
    const res = await join(eventSlug, guestCount, n);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const row = await spec.server.db.knex('waitlist_entries').where({ email: `wait${n}@example.com` }).orderBy('created_at', 'desc').first('id');
    return { id: row.id as string };
  };
  const hold = (target: { event: { slug: string }; offer: { code: string } }, guestCount: number, n: number, extra: Record<string, unknown> = {}) =>
    guest().post('/api/public/reservations', { eventSlug: target.event.slug, offerCode: target.offer.code, guestCount, contact: contact(n), ...extra });
  const seen = async (slug: string) => (await spec.server.request<any>('GET', `/api/public/show-events/${slug}`)).body;
  /** The offer token, from the offer as delivered to the guest (the ledger keeps the link without it). */
  const tokenOf = async (email: string) => {
    const mail = await spec.server.db.knex('email_messages').where({ to_address: email, template: 'waitlist-offer' }).orderBy('created_at', 'desc').first();
    const delivered = await deliveredNow(spec.server.db.knex, mail.id);
    return new URL(delivered.text.match(/https:\/\/venue\.example\/waitlist-offer\S+/)![0]).searchParams.get('token')!;
  };

  /** An event of `capacity` seats, all held by one booking. */
  async function soldOut(capacity = 4) {
    const target = await bookableEvent({ capacity });
    const full = await hold(target, capacity, 1);
    expect(full.status).to.equal(201);
    return { ...target, full: full.body };
  }

  it('joins only when the party does not fit; refuses duplicates, unknown events and bad bodies', async () => {
    const open = await bookableEvent({ capacity: 10 });
    const refused = await join(open.event.slug, 2, 1);
    expect(refused.status).to.equal(409);
    expect(refused.body.code).to.equal('seats_available');
    // 10 seats, 8 held: a party of 3 may wait, a party of 2 should book.
    expect((await hold(open, 8, 2)).status).to.equal(201);
    expect((await join(open.event.slug, 2, 3)).body.code).to.equal('seats_available');
    const joined = await join(open.event.slug, 3, 4);
    expect(joined.status, JSON.stringify(joined.body)).to.equal(201);
    expect(joined.body).to.include({ eventSlug: open.event.slug, guestCount: 3, status: 'WAITING' });
    expect(Object.keys(joined.body).sort()).to.deep.equal(['eventSlug', 'guestCount', 'status']);
    // A duplicate answers exactly like the first join (no oracle) and stores nothing more.
    const again = await join(open.event.slug, 3, 4, { email: 'WAIT4@example.com' });
    expect([again.status, again.body]).to.deep.equal([201, joined.body]);
    const stored = await spec.server.db.knex('waitlist_entries').where({ show_event_id: open.event.id }).count({ n: '*' }).first();
    expect(Number(stored?.n)).to.equal(1);
    expect((await join('no-such-event-2030-01-01-1930', 2, 5)).status).to.equal(404);
    expect((await join(open.event.slug, 0, 5)).status).to.equal(400);
    expect((await guest().post('/api/public/waitlist', { eventSlug: open.event.slug, guestCount: 3, name: 'x', email: 'nope' })).status).to.equal(400);
    const fixed = { 'x-forwarded-for': '100.64.250.1' };
    let last;
    for (let i = 0; i < 11; i++) last = await as(fixed).post('/api/public/waitlist', { eventSlug: open.event.slug, guestCount: 3, name: 'R', email: `rate${i}@example.com` });
    expect(last!.status).to.equal(429);
  });

  it('a duplicate join does the very work of a first one (same statements, in order) and answers identically (issue 32 §4.1)', async () => {
    const target = await soldOut();
    /** The app's statements while `work` runs (the job engine's own left out), and `work`'s answer. */
    const traced = async (work: () => Promise<any>) => {
      const statements: string[] = [];
      const listen = (query: { sql: string }) => {
        if (!/pgboss/i.test(query.sql)) statements.push(query.sql);
      };
      spec.server.db.knex.on('query', listen);
      try {
        return { res: await work(), statements };
      } finally {
        spec.server.db.knex.removeListener('query', listen);
      }
    };
    // From two addresses, so each spends the same first unit of its own address's budget.
    const body = { eventSlug: target.event.slug, guestCount: 2, name: 'Waiting 40', email: 'wait40@example.com', locale: 'en', note: 'Window seat' };
    const first = await traced(() => guest().post('/api/waitlist', body));
    const duplicate = await traced(() => guest().post('/api/waitlist', { ...body, name: 'Someone Else', email: 'WAIT40@Example.com' }));
    // Another address's first join, for comparison: the same again.
    const other = await traced(() => guest().post('/api/waitlist', { ...body, email: 'wait41@example.com' }));

    expect(first.res.status, JSON.stringify(first.res.body)).to.equal(201);
    const answer = (res: any) => {
      const headers = Object.fromEntries([...res.headers.entries()].filter(([name]) => !['x-request-id', 'date'].includes(name)));
      return { status: res.status, body: res.body, headers };
    };
    expect(answer(duplicate.res)).to.deep.equal(answer(first.res));
    expect(answer(other.res)).to.deep.equal(answer(first.res));
    // The same statements, in the same order: a duplicate no longer stops early (it answered in half the time).
    expect(first.statements.length).to.be.greaterThan(3);
    expect(duplicate.statements).to.deep.equal(first.statements);
    expect(other.statements).to.deep.equal(first.statements);

    // Staff see one entry for wait40 (the first join's), none for the duplicate, and the other address's.
    const listed = await staff().get(`/api/waitlist?eventId=${target.event.id}`);
    expect(listed.body.items.map((e: any) => [e.email, e.name, e.status, e.note])).to.deep.equal([
      ['wait40@example.com', 'Waiting 40', 'WAITING', 'Window seat'],
      ['wait41@example.com', 'Waiting 40', 'WAITING', 'Window seat'],
    ]);
    // The duplicate's contact changed no customer either.
    const customer = await spec.server.db.knex('customers').where({ email_normalized: 'wait40@example.com' }).first('name');
    expect(customer).to.deep.equal({ name: 'Waiting 40' });
    // Once that entry is no longer live (archived), the address may join again.
    const entry = await spec.server.db.knex('waitlist_entries').where({ email: 'wait40@example.com' }).first('id');
    expect((await staff().delete(`/api/waitlist/${entry.id}`)).status).to.equal(204);
    expect((await guest().post('/api/waitlist', { ...body, email: 'Wait40@example.com' })).status).to.equal(201);
    const live = await spec.server.db.knex('waitlist_entries').whereRaw('lower(email) = ?', ['wait40@example.com']).where({ status: 'WAITING' }).pluck('email');
    expect(live).to.deep.equal(['Wait40@example.com']);
  });

  it('staff list, read, update and archive; a converted entry is protected; anonymous callers get 401', async () => {
    const target = await soldOut();
    const entry = await joined(target.event.slug, 2, 10);
    for (const [method, path] of [['get', '/api/waitlist'], ['get', `/api/waitlist/${entry.id}`], ['delete', `/api/waitlist/${entry.id}`]] as const) {
      expect((await as({})[method](path)).status).to.equal(401);
    }
    expect((await as({}).post(`/api/waitlist/${entry.id}/notify`)).status).to.equal(401);
    expect((await as({}).patch(`/api/waitlist/${entry.id}`, { note: 'x' })).status).to.equal(401);
    expect((await as(await apiKeyWith('waitlist:read')).get(`/api/waitlist/${entry.id}`)).status).to.equal(200);
    expect((await as(await apiKeyWith('waitlist:read')).post(`/api/waitlist/${entry.id}/notify`)).status).to.equal(403);

    const listed = await staff().get(`/api/waitlist?eventId=${target.event.id}`);
    expect(listed.body.items.map((e: any) => [e.email, e.status, e.guestCount])).to.deep.equal([['wait10@example.com', 'WAITING', 2]]);
    const updated = await staff().patch(`/api/waitlist/${entry.id}`, { guestCount: 3, note: 'Anniversary' });
    expect(updated.body).to.include({ guestCount: 3, note: 'Anniversary' });
    expect((await staff().delete(`/api/waitlist/${entry.id}`)).status).to.equal(204);
    expect((await staff().delete(`/api/waitlist/${entry.id}`)).status).to.equal(204);
    expect((await staff().get(`/api/waitlist/${entry.id}`)).body.status).to.equal('EXPIRED');
    expect((await staff().patch(`/api/waitlist/${entry.id}`, { note: 'x' })).body.code).to.equal('entry_not_waiting');
    expect((await staff().get(`/api/waitlist/${MISSING_ID}`)).status).to.equal(404);
    expect((await staff().delete(`/api/waitlist/${MISSING_ID}`)).status).to.equal(404);
    expect((await staff().post(`/api/waitlist/${MISSING_ID}/notify`)).status).to.equal(404);
  });

  it('an offer holds its seats in the availability; booking through its link converts the entry', async () => {
    const knex = spec.server.db.knex;
    const target = await soldOut(4);
    const entry = await joined(target.event.slug, 2, 20);
    expect((await staff().post(`/api/waitlist/${entry.id}/notify`)).body.code).to.equal('not_enough_seats');
    // The full booking is cancelled: 4 seats free.
    const cancel = await spec.server.request<any>('POST', `/api/public/reservations/${target.full.reference}/cancel`, { headers: { 'x-reservation-token': target.full.accessToken }, body: {} });
    expect(cancel.status).to.equal(200);
    expect(await seen(target.event.slug)).to.deep.include({ state: 'LIMITED' });
    const notified = await staff().post(`/api/waitlist/${entry.id}/notify`);
    expect(notified.status, JSON.stringify(notified.body)).to.equal(200);
    expect(notified.body.status).to.equal('NOTIFIED');
    const expires = new Date(notified.body.offerExpiresAt).getTime();
    expect(expires).to.be.within(Date.now() + 24 * 3_600_000 - 60_000, Date.now() + 24 * 3_600_000 + 60_000);
    const token = await tokenOf('wait20@example.com');
    expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
    // Two seats left for everyone else: a party of 3 is refused, the offer's 2 are not for sale.
    expect((await hold(target, 3, 21)).body.code).to.equal('not_enough_seats');
    expect((await hold(target, 2, 22)).status).to.equal(201);
    expect(await seen(target.event.slug)).to.deep.include({ state: 'SOLD_OUT' });

    const other = await bookableEvent();
    expect((await hold(other, 2, 23, { waitlistToken: token })).body.code).to.equal('waitlist_offer_invalid');
    expect((await hold(target, 3, 23, { waitlistToken: token })).body.code).to.equal('waitlist_party_too_large');
    const booked = await hold(target, 2, 20, { waitlistToken: token });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const converted = (await staff().get(`/api/waitlist/${entry.id}`)).body;
    expect(converted).to.include({ status: 'CONVERTED', reservationReference: booked.body.reference });
    expect((await hold(target, 2, 24, { waitlistToken: token })).body.code).to.equal('waitlist_offer_invalid');
    const archived = await staff().delete(`/api/waitlist/${entry.id}`);
    expect(archived.status).to.equal(409);
    expect(archived.body.code).to.equal('entry_converted');
    expect(await seen(target.event.slug)).to.deep.include({ state: 'SOLD_OUT' });
  });

  it('freed seats go, in joining order, to each waiting party that fits (job); an expired offer passes them on', async () => {
    const knex = spec.server.db.knex;
    const target = await soldOut(4);
    const b = await joined(target.event.slug, 2, 30);
    const c = await joined(target.event.slug, 4, 31);
    const d = await joined(target.event.slug, 1, 32);
    await spec.server.request<any>('POST', `/api/public/reservations/${target.full.reference}/cancel`, { headers: { 'x-reservation-token': target.full.accessToken }, body: {} });
    // The cancellation queued the notify job for this event.
    const queued = await knex.raw('select data from pgboss.job where name = ?', [WAITLIST_NOTIFY_NEXT_QUEUE]);
    expect(queued.rows.map((r: any) => r.data.eventId)).to.include(target.event.id);
    expect(await notifyNextWaiting(spec.server.app.context, target.event.id)).to.equal(2);
    const status = async (id: string) => (await staff().get(`/api/waitlist/${id}`)).body.status;
    expect([await status(b.id), await status(c.id), await status(d.id)]).to.deep.equal(['NOTIFIED', 'WAITING', 'NOTIFIED']);
    expect(await notifyNextWaiting(spec.server.app.context, target.event.id)).to.equal(0);
    const offers = await knex('email_messages').where({ template: 'waitlist-offer' }).whereIn('to_address', ['wait30@example.com', 'wait31@example.com', 'wait32@example.com']).pluck('to_address');
    expect(offers.sort()).to.deep.equal(['wait30@example.com', 'wait32@example.com']);

    // Both offers run out: the job expires them and offers the 4 seats to the party of 4.
    await knex('waitlist_entries').whereIn('id', [b.id, d.id]).update({ offer_expires_at: new Date(Date.now() - 1000) });
    const expireJob = waitlistJobs.find((q) => q.name === 'waitlist.expire-offers')!;
    const result = await expireJob.handler({}, { app: spec.server.app.context, log: spec.server.app.context.logger } as never);
    expect(result).to.deep.equal({ events: 1, notified: 1 });
    expect([await status(b.id), await status(c.id), await status(d.id)]).to.deep.equal(['EXPIRED', 'NOTIFIED', 'EXPIRED']);
    expect(await expireOffers(knex)).to.deep.equal([]);
  });
});
