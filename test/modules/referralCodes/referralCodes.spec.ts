import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { admin, program } from '../referralPartners/helpers.ts';
import { catalogCallers } from '../shows/catalog.ts';

/** Referral codes (issue 12): CRUDL, Admin+; delete archives and keeps the history. */
describe('referralCodes: /api/referral-codes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('needs admin (anonymous 401, staff 403)', async () => {
    const callers = await catalogCallers();
    expect((await server.request('GET', '/api/referral-codes')).status).to.equal(401);
    expect((await server.request('POST', '/api/referral-codes', { headers: callers.staff, body: { code: 'ABC', partnerId: '00000000-0000-4000-8000-000000000000' } })).status).to.equal(403);
  });

  it('creates (upper case, unique: 409 code_taken; unknown partner 422), reads, lists, updates and archives', async () => {
    const { partner, code } = await program(server);
    expect(code).to.include({ status: 'ACTIVE', guestDiscount: true, guestDiscountPercent: 10, commissionRule: null, partnerId: partner.id });
    const made = await admin(server).post('/api/referral-codes', { code: `x${code.code.slice(3)}z`, partnerId: partner.id, commissionRule: { kind: 'PERCENT', value: 15 } });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body.code).to.equal(`X${code.code.slice(3)}Z`);
    expect(made.body.guestDiscount).to.equal(false);
    const dup = await admin(server).post('/api/referral-codes', { code: code.code.toLowerCase(), partnerId: partner.id });
    expect(dup.status).to.equal(409);
    expect(dup.body.code).to.equal('code_taken');
    const orphan = await admin(server).post('/api/referral-codes', { code: 'ORPHAN1', partnerId: '00000000-0000-4000-8000-000000000000' });
    expect(orphan.status).to.equal(422);
    expect(orphan.body.code).to.equal('unknown_partner');

    expect((await admin(server).get(`/api/referral-codes/${made.body.id}`)).body).to.deep.equal(made.body);
    const updated = await admin(server).patch(`/api/referral-codes/${made.body.id}`, { guestDiscountPercent: 5, commissionRule: null, description: 'Spring' });
    expect(updated.body).to.include({ guestDiscount: true, guestDiscountPercent: 5, commissionRule: null, description: 'Spring' });

    const list = await admin(server).get(`/api/referral-codes?partnerId=${partner.id}`);
    expect(list.body.total).to.equal(2);
    expect(list.body.items[0].id).to.equal(made.body.id);

    expect((await admin(server).delete(`/api/referral-codes/${made.body.id}`)).status).to.equal(204);
    expect((await admin(server).delete(`/api/referral-codes/${made.body.id}`)).status).to.equal(204);
    const archived = await admin(server).get(`/api/referral-codes/${made.body.id}`);
    expect(archived.body.status).to.equal('ARCHIVED');
    expect(archived.body.archivedAt).to.be.a('string');
    expect((await admin(server).get(`/api/referral-codes?partnerId=${partner.id}&status=ACTIVE`)).body.total).to.equal(1);
    expect((await admin(server).delete('/api/referral-codes/00000000-0000-4000-8000-000000000000')).status).to.equal(404);
  });
});
