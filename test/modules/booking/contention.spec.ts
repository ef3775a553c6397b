import { expect } from 'chai';
import { upsertCustomerByEmail } from '../../../server/modules/booking/contacts.ts';
import { FreshRead, SeatGate } from '../../../server/modules/booking/seatGate.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { bookableEvent, contact } from './factories.ts';

/** Each request its own client address (TRUST_PROXY), so the per-address rate limits stay out of the way. */
let ipCounter = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `10.${(++ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}` });

/** The event row lock of a hold (queries.ts `lockEventBySlug`). */
const isEventLock = (sql: string) => /for update of e\b/.test(sql);

/** A problem body without what differs per request. */
const problem = (body: Record<string, unknown>) => {
  const { requestId: _requestId, ...rest } = body;
  return rest;
};

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('booking: sold out, answered before the event lock (issue 25 §8) @db', () => {
  let server: TestServer;
  let locks = 0;
  const countLocks = (query: { sql: string }) => {
    if (isEventLock(query.sql)) locks++;
  };
  beforeEach(async () => {
    server = await startTestServer({ config: { trustProxy: true } });
    locks = 0;
    server.db.knex.on('query', countLocks);
  });
  afterEach(async () => {
    server.db.knex.off('query', countLocks);
    await server.close();
  });

  const hold = (body: Record<string, unknown>, headers: Record<string, string> = {}, on: TestServer = server) =>
    on.request<any>('POST', '/api/public/reservations', { body, headers: { ...fromNewAddress(), ...headers } });

  /** The same request answered by the locked check alone (the gate set aside for it). */
  async function lockedAnswer(body: Record<string, unknown>) {
    const context = server.app.context;
    const gate = context.bookingGate;
    context.bookingGate = { run: ({ hold: locked }: { hold: () => Promise<unknown> }) => locked() } as unknown as SeatGate;
    try {
      return await hold(body);
    } finally {
      context.bookingGate = gate;
    }
  }

  it('refuses a sold-out event and a party too large without the lock, with the locked check\'s answer', async () => {
    const { event, offer } = await bookableEvent({ capacity: 5 });
    const base = { eventSlug: event.slug, offerCode: offer.code, contact: contact(1) };
    expect((await hold({ ...base, guestCount: 3 })).status).to.equal(201);

    // Two seats left: four guests do not fit.
    locks = 0;
    const early = await hold({ ...base, guestCount: 4 });
    expect(locks, 'the refusal took the event lock').to.equal(0);
    const locked = await lockedAnswer({ ...base, guestCount: 4 });
    expect(locks).to.equal(1);
    expect(early.status).to.equal(409);
    expect(early.body.code).to.equal('not_enough_seats');
    expect(early.headers.get('content-type')).to.equal(locked.headers.get('content-type'));
    expect(problem(early.body)).to.deep.equal(problem(locked.body));
    expect(early.body.detail).to.equal('Only 2 seats are left.');

    expect((await hold({ ...base, guestCount: 2 })).status).to.equal(201);
    locks = 0;
    const soldOut = await hold({ ...base, guestCount: 1 });
    expect(locks, 'the refusal took the event lock').to.equal(0);
    const soldOutLocked = await lockedAnswer({ ...base, guestCount: 1 });
    expect(locks).to.equal(1);
    expect(soldOut.status).to.equal(409);
    expect(soldOut.body.code).to.equal('sold_out');
    expect(problem(soldOut.body)).to.deep.equal(problem(soldOutLocked.body));
    expect(Number((await server.db.knex('reservations').where({ show_event_id: event.id }).sum({ guests: 'guest_count' }).first())!.guests)).to.equal(5);
  });

  it('answers what comes before the seats as the locked check does: the offer, the guests, the contact, the lead', async () => {
    const { event, offer } = await bookableEvent({ capacity: 2, minGuests: 1, maxGuests: 4 });
    expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact(1) })).status).to.equal(201);
    const cases: Array<[Record<string, unknown>, string | number]> = [
      [{ eventSlug: event.slug, offerCode: 'NOPE', guestCount: 1, contact: contact() }, 'offer_unavailable'],
      [{ eventSlug: event.slug, offerCode: offer.code, guestCount: 5, contact: contact() }, 'guest_count_out_of_range'],
      [{ eventSlug: event.slug, offerCode: offer.code, guestCount: 1 }, 'contact_required'],
      [{ eventSlug: event.slug, offerCode: offer.code, guestCount: 1, leadReference: 'Lnot-a-real-lead-reference' }, 'unknown_lead'],
      [{ eventSlug: 'no-such-event-2030-01-01-1930', offerCode: offer.code, guestCount: 1, contact: contact() }, 404],
    ];
    for (const [body, expected] of cases) {
      const early = await hold(body);
      const locked = await lockedAnswer(body);
      expect(typeof expected === 'number' ? early.status : early.body.code).to.equal(expected);
      expect(problem(early.body)).to.deep.equal(problem(locked.body));
    }
    await server.db.knex('show_events').where({ id: event.id }).update({ sales_open: false });
    expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact() })).body.code).to.equal('sales_closed');
  });

  it('a freed seat is bookable at once: a cancellation, an expired hold, a capacity raised — whoever wrote it', async () => {
    const { event, offer } = await bookableEvent({ capacity: 3 });
    const base = { eventSlug: event.slug, offerCode: offer.code };
    const first = await hold({ ...base, guestCount: 2, contact: contact(1) });
    const second = await hold({ ...base, guestCount: 1, contact: contact(2) });
    expect([first.status, second.status]).to.deep.equal([201, 201]);
    expect((await hold({ ...base, guestCount: 1, contact: contact(3) })).body.code).to.equal('sold_out');

    // The guest cancels: the seat is free for the very next request.
    const cancelled = await server.request<any>('POST', `/api/public/reservations/${second.body.reference}/cancel`, { headers: { 'x-reservation-token': second.body.accessToken }, body: {} });
    expect(cancelled.status).to.equal(200);
    const third = await hold({ ...base, guestCount: 1, contact: contact(3) });
    expect(third.status).to.equal(201);
    expect((await hold({ ...base, guestCount: 1, contact: contact(4) })).body.code).to.equal('sold_out');

    // A hold runs out by time (no job has marked it yet; as another process would find it): its seats are free.
    await server.db.knex('reservations').where({ reference: first.body.reference }).update({ hold_expires_at: new Date(Date.now() - 1000) });
    expect((await hold({ ...base, guestCount: 2, contact: contact(5) })).status).to.equal(201);
    expect((await hold({ ...base, guestCount: 1, contact: contact(6) })).body.code).to.equal('sold_out');

    // Staff raise the capacity (written straight into the table: nothing in this process hears of it).
    await server.db.knex('show_events').where({ id: event.id }).update({ capacity: 4 });
    expect((await hold({ ...base, guestCount: 1, contact: contact(6) })).status).to.equal(201);
  });

  it('200 concurrent holds for the last 10 seats through two apps: exactly 10 guests held, none oversold, the refused never queue for the lock', async function () {
    this.timeout(120_000);
    const other = await startTestServer({ config: { trustProxy: true }, keepData: true });
    try {
      const { event, offer } = await bookableEvent({ capacity: 60 });
      for (let i = 0; i < 5; i++) expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 10, contact: contact(100 + i) })).status).to.equal(201);
      locks = 0;
      // Each app has its own gate, as two processes would: only the event lock in the database arbitrates between them.
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 1 + (i % 2), contact: contact(i) }, {}, i % 2 ? other : server)),
      );
      const created = answers.filter((a) => a.status === 201);
      const refused = answers.filter((a) => a.status === 409);
      expect(created.length + refused.length).to.equal(200);
      expect(refused.every((a) => ['sold_out', 'not_enough_seats'].includes(a.body.code))).to.equal(true);
      expect(created.reduce((sum, a) => sum + a.body.guestCount, 0)).to.equal(10);
      const taken = await server.db.knex('reservations').where({ show_event_id: event.id }).whereIn('status', ['HELD', 'CONFIRMED']).sum({ guests: 'guest_count' }).first();
      expect(Number(taken!.guests)).to.equal(60);
      // Before, every one of the 200 took the lock; now only those the seats left could take (a few more when both apps admit at once).
      expect(locks).to.be.within(created.length, 60);
      expect(server.app.context.bookingGate.size + other.app.context.bookingGate.size).to.equal(0);
    } finally {
      await other.close();
    }
  });

  it('an Idempotency-Key retried while the last seat is taken replays the first answer, not sold out', async () => {
    const { event, offer } = await bookableEvent({ capacity: 1 });
    const body = { eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact(1) };
    const key = 'c0e1d2c3-b4a5-4678-9abc-def012345678';
    const answers = await Promise.all(Array.from({ length: 6 }, () => hold(body, { 'idempotency-key': key })));
    expect(answers.map((a) => a.status)).to.deep.equal([201, 201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.reference)).size).to.equal(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).to.have.length(5);
    // Another guest is refused, and the key still replays.
    expect((await hold({ ...body, contact: contact(2) })).body.code).to.equal('sold_out');
    expect((await hold(body, { 'idempotency-key': key })).body.reference).to.equal(answers[0].body.reference);
  });

  it('a certain refusal spends none of the address\'s hold budget; what reaches the lock does', async () => {
    const { event, offer } = await bookableEvent({ capacity: 1 });
    const open = await bookableEvent();
    expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact(1) })).status).to.equal(201);
    const headers = { 'x-forwarded-for': '192.0.2.78' };
    for (let i = 0; i < 35; i++) expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact(2) }, headers)).body.code).to.equal('sold_out');
    expect((await hold({ eventSlug: open.event.slug, offerCode: open.offer.code, guestCount: 1, contact: contact(2) }, headers)).status).to.equal(201);
    // The budget (30) is spent by requests that reach the hold's transaction, refused there or not.
    for (let i = 0; i < 29; i++) expect((await hold({ eventSlug: open.event.slug, offerCode: 'NOPE', guestCount: 1, contact: contact(2) }, headers)).status).to.equal(422);
    expect((await hold({ eventSlug: open.event.slug, offerCode: open.offer.code, guestCount: 1, contact: contact(2) }, headers)).status).to.equal(429);
  });

  it('the event lock is held for the hold written with its seats counted (one statement), the catalog\'s notification and the commit', async () => {
    const { event, offer } = await bookableEvent({ capacity: 5 });
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    server.db.knex.on('query', record);
    try {
      expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact(1) })).status).to.equal(201);
    } finally {
      server.db.knex.off('query', record);
    }
    const afterLock = statements.slice(statements.findIndex(isEventLock) + 1);
    const locked = afterLock.slice(0, afterLock.findIndex((sql) => /^commit/i.test(sql)) + 1);
    // The notification (PostgreSQL only: pg_notify) is the catalog's subscriber to hold.placed.
    expect(locked.filter((sql) => !/pg_notify/.test(sql))).to.have.length(2);
    expect(locked[0]).to.match(/^with "inserted" as \(insert into "reservations"/);
    expect(locked[0]).to.include('seats_taken_by_others');
  });

  it('the locked check answers the seats before the price: sold out, with a promo code it does not know', async () => {
    const { event, offer } = await bookableEvent({ capacity: 1 });
    const open = await bookableEvent({ capacity: 1 });
    expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact(1) })).status).to.equal(201);
    const soldOut = await lockedAnswer({ eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact(2), promoCode: 'NOSUCHCODE' });
    expect([soldOut.status, soldOut.body.code]).to.deep.equal([409, 'sold_out']);
    const unknown = await lockedAnswer({ eventSlug: open.event.slug, offerCode: open.offer.code, guestCount: 1, contact: contact(2), promoCode: 'NOSUCHCODE' });
    expect([unknown.status, unknown.body.code]).to.deep.equal([422, 'promo_code_invalid']);
    const written = await server.db.knex('reservations').where({ show_event_id: open.event.id }).count({ n: '*' }).first();
    expect(Number(written!.n)).to.equal(0);
  });

  it('a guest\'s contact whose e-mail another transaction is inserting gets that customer once it commits (PostgreSQL)', async function () {
    if (server.db.kind !== 'postgres') this.skip();
    const { knex } = server.db;
    const guest = { honorific: null, name: 'Race Guest', email: 'Race.Guest@example.com', phone: null, locale: null };
    const first = await knex.transaction();
    const firstId = await upsertCustomerByEmail(first, guest, 'guest');
    const second = knex.transaction((trx) => upsertCustomerByEmail(trx, guest, 'guest'));
    // The second waits on the unique index for the first, whose row its statement's snapshot does not see.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await first.commit();
    expect(await second).to.equal(firstId);
    const history = await knex('customer_emails').where({ customer_id: firstId }).count({ n: '*' }).first();
    expect(Number(history!.n)).to.equal(1);
  });

  it('a waiting-list offer\'s own seats are counted by the locked check alone', async () => {
    const { event, offer } = await bookableEvent({ capacity: 2 });
    expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact(1) })).status).to.equal(201);
    locks = 0;
    // A token goes to the lock (the waiting list judges it there); an unknown one is refused as such, not as sold out.
    const answer = await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact(2), waitlistToken: 'W'.repeat(43) });
    expect(answer.body.code).to.equal('waitlist_offer_invalid');
    expect(locks).to.equal(1);
  });
});

describe('booking: the seat gate (server/modules/booking/seatGate.ts) @db', () => {
  it('a read is shared only by those who came before it started', async () => {
    const reads = new FreshRead<number>();
    let started = 0;
    const release: Array<() => void> = [];
    const read = () => new Promise<number>((resolve) => release.push(() => resolve(++started)));
    const a = reads.fresh(read, FreshRead.now());
    const b = reads.fresh(read, FreshRead.now() - 1); // came before it started: shares it
    const c = reads.fresh(read, FreshRead.now()); // came while it runs: the next one
    const d = reads.fresh(read, FreshRead.now());
    expect(release).to.have.length(1);
    release[0]();
    expect(await a).to.equal(1);
    expect(await b).to.equal(1);
    await tick();
    expect(release).to.have.length(2);
    release[1]();
    expect(await c).to.equal(2);
    expect(await d).to.equal(2);
  });

  it('admits as many as the seats left, refuses the rest once those settle, and forgets the event', async () => {
    const gate = new SeatGate();
    let left = 2;
    let reads = 0;
    const finish: Array<() => void> = [];
    const request = (seats: number) =>
      gate.run<number, string>({
        event: 'e',
        readKey: 'e',
        seats,
        read: async () => {
          reads++;
          return left;
        },
        judge: async (seen) => {
          if (seen < seats) throw new Error(seen <= 0 ? 'sold_out' : 'not_enough_seats');
          return { left: seen };
        },
        hold: () =>
          new Promise<string>((resolve) =>
            finish.push(() => {
              left -= seats;
              resolve('held');
            }),
          ),
      }).catch((err: Error) => err.message);
    const answers = Array.from({ length: 6 }, () => request(1));
    for (let i = 0; i < 5; i++) await tick();
    expect(finish, 'admitted at once').to.have.length(2);
    finish[0]();
    for (let i = 0; i < 5; i++) await tick();
    expect(finish, 'the seat is held, not freed: nobody else admitted').to.have.length(2);
    finish[1]();
    expect(await Promise.all(answers)).to.deep.equal(['held', 'held', 'sold_out', 'sold_out', 'sold_out', 'sold_out']);
    expect(reads).to.be.at.most(4);
    expect(gate.size).to.equal(0);
  });

  it('requests that come while the first read runs are admitted on it: one read for the seats that are left', async () => {
    const gate = new SeatGate();
    let reads = 0;
    let release = () => {};
    const admitted: string[] = [];
    const answers = Array.from({ length: 5 }, (_, i) =>
      gate.run<number, string>({
        event: 'e',
        readKey: 'e',
        seats: 1,
        read: () =>
          new Promise<number>((resolve) => {
            reads++;
            release = () => resolve(10);
          }),
        judge: async (seen) => ({ left: seen }),
        hold: async () => {
          admitted.push(`r${i}`);
          return 'held';
        },
      }),
    );
    for (let i = 0; i < 5; i++) await tick();
    expect(reads).to.equal(1);
    release();
    expect(await Promise.all(answers)).to.deep.equal(['held', 'held', 'held', 'held', 'held']);
    expect(reads).to.equal(1);
  });

  it('a hold that commits while others are in flight wakes no one: the waiting read again once the last settles', async () => {
    const gate = new SeatGate();
    let left = 10;
    let reads = 0;
    const finish: Array<() => void> = [];
    const answers = Array.from({ length: 30 }, () =>
      gate.run<number, string>({
        event: 'e',
        readKey: 'e',
        seats: 1,
        read: async () => {
          reads++;
          return left;
        },
        judge: async (seen) => {
          if (seen < 1) throw new Error('sold_out');
          return { left: seen };
        },
        hold: () =>
          new Promise<string>((resolve) =>
            finish.push(() => {
              left -= 1;
              resolve('held');
            }),
          ),
      }).catch((err: Error) => err.message),
    );
    for (let i = 0; i < 5; i++) await tick();
    expect(finish).to.have.length(10);
    const before = reads;
    for (const done of finish.slice(0, 9)) {
      done();
      for (let i = 0; i < 3; i++) await tick();
    }
    expect(reads, 'no read while seats are in flight').to.equal(before);
    finish[9]();
    const settled = await Promise.all(answers);
    expect(settled.filter((a) => a === 'held')).to.have.length(10);
    expect(settled.filter((a) => a === 'sold_out')).to.have.length(20);
    expect(reads).to.equal(before + 1);
    expect(gate.size).to.equal(0);
  });

  it('a hold that fails frees its seats for a waiting one', async () => {
    const gate = new SeatGate();
    const finish: Array<(ok: boolean) => void> = [];
    let left = 1;
    const request = () =>
      gate.run<number, string>({
        event: 'e',
        readKey: 'e',
        seats: 1,
        read: async () => left,
        judge: async (seen) => {
          if (seen < 1) throw new Error('sold_out');
          return { left: seen };
        },
        hold: () =>
          new Promise<string>((resolve, reject) =>
            finish.push((ok) => {
              if (!ok) return reject(new Error('promo_invalid'));
              left -= 1;
              resolve('held');
            }),
          ),
      }).catch((err: Error) => err.message);
    const first = request();
    const second = request();
    for (let i = 0; i < 5; i++) await tick();
    expect(finish).to.have.length(1);
    finish[0](false);
    for (let i = 0; i < 5; i++) await tick();
    expect(finish).to.have.length(2);
    finish[1](true);
    expect([await first, await second]).to.deep.equal(['promo_invalid', 'held']);
  });
});
