import { expect } from 'chai';
import { countRows } from '../../helpers/accounts.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';

/** POST /api/customers/{customerId}/emails: staff write to a customer through a template, recorded in the ledger. */
describe('customers: sending an e-mail (POST /api/customers/{customerId}/emails)', () => {
  const spec = catalogSpec({ config: { trustProxy: true } });
  const as = spec.as;
  const staff = () => as(spec.callers.staff);
  const knex = () => spec.server.db.knex;
  let ip = 1;

  /** A customer made by a real booking; its id and the reservation's. */
  async function customer(who: ReturnType<typeof contact>) {
    const { event, offer } = await bookableEvent();
    const res = await as({ 'x-forwarded-for': `198.51.100.${ip++}` }).post('/api/public/reservations', { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: who });
    expect(res.status).to.equal(201);
    const row = await knex()('reservations').where({ reference: res.body.reference }).first('id', 'customer_id');
    return { customerId: row.customer_id as string, reservationId: row.id as string };
  }

  const message = { template: 'customer-message', subject: 'Your table on Saturday', body: 'We kept a table <near> the stage.\n\nSee you soon!' };

  it('records a QUEUED ledger row in the customer’s language, linked to it, with its send job; the text is escaped', async () => {
    const { customerId, reservationId } = await customer({ ...contact(301), locale: 'vi' });
    const res = await staff().post(`/api/customers/${customerId}/emails`, { ...message, reservationId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ status: 'QUEUED', to: 'guest301@example.com', subject: 'Your table on Saturday', template: 'customer-message', locale: 'vi', customerId, reservationId });
    expect(res.body).not.to.have.property('htmlBody');
    const row = await knex()('email_messages').where({ id: res.body.id }).first();
    expect(row.text_body).to.include('Kính gửi quý khách Guest 301,');
    expect(row.text_body).to.include('We kept a table <near> the stage.\n\nSee you soon!');
    expect(row.html_body).to.include('<p>We kept a table &lt;near&gt; the stage.</p>');
    const jobs = await knex()('pgboss.job').where({ name: 'email.send' }).select('data');
    expect(jobs.some((job: { data: { messageId: string } }) => job.data.messageId === res.body.id)).to.equal(true);
    // It is one of the customer's ledger rows.
    const ledger = await staff().get(`/api/customers/${customerId}/emails`);
    expect(ledger.body.items.map((item: { id: string }) => item.id)).to.include(res.body.id);

    const english = await staff().post(`/api/customers/${customerId}/emails`, { ...message, locale: 'en' });
    expect(english.body.locale).to.equal('en');
    expect((await knex()('email_messages').where({ id: english.body.id }).first('text_body')).text_body).to.match(/^Dear Guest 301,/);
  });

  it('refuses: 401 anonymous, 403 API key without customers:email, 404 unknown, 409 deleted, 422 another’s reservation, 400 bad body', async () => {
    const { customerId } = await customer(contact(302));
    const other = await customer(contact(303));
    const before = await countRows(knex(), 'email_messages');
    const post = (headers: Record<string, string>, body: unknown, id = customerId) => as(headers).post(`/api/customers/${id}/emails`, body);
    expect((await post({}, message)).status).to.equal(401);
    const reader = await post(await apiKeyWith('customers:read', 'customers:write'), message);
    expect(reader.status).to.equal(403);
    expect(reader.body.code).to.equal('missing_permission');
    expect((await post(spec.callers.staff, message, MISSING_ID)).status).to.equal(404);
    const foreign = await post(spec.callers.staff, { ...message, reservationId: other.reservationId });
    expect(foreign.status).to.equal(422);
    expect(foreign.body.code).to.equal('unknown_reservation');
    for (const body of [{ ...message, template: 'reservation-confirmation' }, { ...message, subject: '' }, { ...message, html: '<b>x</b>' }, { template: 'customer-message', subject: 'x' }, { ...message, subject: 'a\nb' }]) {
      expect((await post(spec.callers.staff, body)).status, JSON.stringify(body)).to.equal(400);
    }
    await as(spec.callers.admin).delete(`/api/customers/${other.customerId}`);
    const deleted = await post(spec.callers.staff, message, other.customerId);
    expect(deleted.status).to.equal(409);
    expect(deleted.body.code).to.equal('customer_deleted');
    expect(await countRows(knex(), 'email_messages')).to.equal(before);
    expect((await post(await apiKeyWith('customers:email'), message)).status).to.equal(201);
  });
});
