import { expect } from 'chai';
import { paymentsSpec, paidByVnpay, runRefundJob } from '../payments/helpers.ts';
import { cancelReservation } from '../../../server/modules/booking/lifecycle.ts';
import { inTransition } from '../../../server/domain/unitOfWork.ts';
import { admin, program, resolve } from '../referralPartners/helpers.ts';

/** Commissions and payouts (issue 12): earned on payment, settled by admins, voided on cancellation/refund, paid in batches. */
describe('referralCommissions: /api/referral-commissions', () => {
  const spec = paymentsSpec();

  async function earned(p: Awaited<ReturnType<typeof program>>, guests = 2) {
    const token = (await resolve(spec.server, p.link.slug)).body.attribution.token;
    const { held, paymentId } = await paidByVnpay(spec, { guests, extra: { referral: { attributionToken: token } } });
    const row = await spec.server.db.knex('referral_commissions').where({ reservation_id: held.id }).first();
    return { held, paymentId, id: row.id as string };
  }

  it('needs admin on every route', async () => {
    for (const [method, path] of [
      ['GET', '/api/referral-commissions'],
      ['PATCH', '/api/referral-commissions/00000000-0000-4000-8000-000000000000/status'],
      ['POST', '/api/referral-commissions/payouts'],
      ['GET', '/api/referral-commissions/payouts'],
      ['GET', '/api/referral-commissions/payouts/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      expect((await spec.server.request(method, path, { body: method === 'GET' ? undefined : {} })).status, path).to.equal(401);
    }
  });

  it('lists with filters and paging; moves through the legal transitions only', async () => {
    const p = await program(spec.server, { discount: 0, commissionRule: { kind: 'FIXED_PER_GUEST', value: 100_000 } });
    const a = await earned(p, 2);
    const b = await earned(p, 3);
    const page = await admin(spec.server).get(`/api/referral-commissions?partnerId=${p.partner.id}&limit=1`);
    expect(page.body.total).to.equal(2);
    expect(page.body.items).to.have.length(1);
    expect(page.body.items[0]).to.include({ id: b.id, amountVnd: 300_000, status: 'PENDING', code: p.code.code, reservationReference: b.held.reference });
    expect((await admin(spec.server).get(`/api/referral-commissions?partnerId=${p.partner.id}&from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z`)).body.total).to.equal(0);

    const approved = await admin(spec.server).patch(`/api/referral-commissions/${a.id}/status`, { status: 'APPROVED' });
    expect(approved.status).to.equal(200);
    expect(approved.body.status).to.equal('APPROVED');
    expect((await admin(spec.server).get(`/api/referral-commissions?partnerId=${p.partner.id}&status=APPROVED`)).body.total).to.equal(1);
    const voided = await admin(spec.server).patch(`/api/referral-commissions/${b.id}/status`, { status: 'VOID', reason: 'duplicate' });
    expect(voided.body).to.include({ status: 'VOID', voidReason: 'duplicate' });
    const illegal = await admin(spec.server).patch(`/api/referral-commissions/${b.id}/status`, { status: 'APPROVED' });
    expect(illegal.status).to.equal(409);
    expect(illegal.body.code).to.equal('illegal_transition');
    expect((await admin(spec.server).patch(`/api/referral-commissions/${a.id}/status`, { status: 'PAID' })).status).to.equal(400);
  });

  it('a cancellation or a full refund before payout voids the commission', async () => {
    const p = await program(spec.server, { discount: 0 });
    const a = await earned(p);
    const refund = await admin(spec.server).post(`/api/payments/${a.paymentId}/refunds`, { amountVnd: a.held.totalVnd, reason: 'guest asked' });
    expect(refund.status, JSON.stringify(refund.body)).to.be.oneOf([201, 202]);
    const knex = spec.server.db.knex;
    const [queued] = await knex('refunds').where({ payment_id: a.paymentId }).select('id', 'status');
    if (queued.status !== 'SUCCEEDED') await runRefundJob(spec.server, queued.id);
    const payment = await knex('payments').where({ id: a.paymentId }).first('status');
    expect(payment.status).to.equal('REFUNDED');
    expect((await knex('referral_commissions').where({ id: a.id }).first()).status).to.equal('VOID');

    const b = await earned(p);
    await inTransition(spec.server.app.context, 'SYSTEM', (ctx) => cancelReservation(ctx, b.held.id, { by: 'SYSTEM', reason: 'test' }));
    expect((await knex('referral_commissions').where({ id: b.id }).first()).status).to.equal('VOID');
  });

  it('pays approved commissions in one batch per partner (PAID, reference, total); Idempotency-Key; nothing left is 409', async () => {
    const p = await program(spec.server, { discount: 0, commissionRule: { kind: 'FIXED_PER_GUEST', value: 100_000 } });
    const q = await program(spec.server, { discount: 0, commissionRule: { kind: 'FIXED_PER_GUEST', value: 50_000 } });
    const a = await earned(p, 2);
    const b = await earned(p, 1);
    const c = await earned(q, 2);
    const pending = await earned(p, 4);
    for (const id of [a.id, b.id, c.id]) await admin(spec.server).patch(`/api/referral-commissions/${id}/status`, { status: 'APPROVED' });

    const key = { 'idempotency-key': `payout-run-${p.partner.id}` };
    const res = await admin(spec.server).post('/api/referral-commissions/payouts', { partnerId: p.partner.id, note: 'November' }, key);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.items).to.have.length(1);
    const batch = res.body.items[0];
    expect(batch).to.include({ partnerId: p.partner.id, totalVnd: 300_000, commissionCount: 2, note: 'November' });
    expect(batch.reference).to.match(/^RP-\d{8}-[0-9A-Z]{6}$/);
    expect([...batch.commissionIds].sort()).to.deep.equal([a.id, b.id].sort());
    const replay = await admin(spec.server).post('/api/referral-commissions/payouts', { partnerId: p.partner.id, note: 'November' }, key);
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body).to.deep.equal(res.body);
    const reused = await admin(spec.server).post('/api/referral-commissions/payouts', { partnerId: p.partner.id }, key);
    expect(reused.status).to.equal(422);
    expect(reused.body.code).to.equal('idempotency_key_reused');

    const statuses = await spec.server.db.knex('referral_commissions').whereIn('id', [a.id, b.id, c.id, pending.id]).select('id', 'status', 'payout_id');
    const by = Object.fromEntries(statuses.map((s: { id: string }) => [s.id, s]));
    expect(by[a.id]).to.include({ status: 'PAID', payout_id: batch.id });
    expect(by[c.id]).to.include({ status: 'APPROVED', payout_id: null });
    expect(by[pending.id]).to.include({ status: 'PENDING' });
    const paidMove = await admin(spec.server).patch(`/api/referral-commissions/${a.id}/status`, { status: 'VOID' });
    expect(paidMove.status).to.equal(409);
    const again = await admin(spec.server).post('/api/referral-commissions/payouts', { partnerId: p.partner.id });
    expect(again.status).to.equal(409);
    expect(again.body.code).to.equal('nothing_to_pay');

    expect((await admin(spec.server).get(`/api/referral-commissions/payouts/${batch.id}`)).body).to.deep.equal(batch);
    const list = await admin(spec.server).get(`/api/referral-commissions/payouts?partnerId=${p.partner.id}`);
    expect(list.body.total).to.equal(1);
    expect(list.body.items[0]).to.deep.equal(batch);
    expect((await admin(spec.server).get('/api/referral-commissions/payouts/00000000-0000-4000-8000-000000000000')).status).to.equal(404);
  });

  it('two concurrent payout requests never put one commission in two batches @db', async () => {
    const p = await program(spec.server, { discount: 0 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await earned(p, 1)).id);
    for (const id of ids) await admin(spec.server).patch(`/api/referral-commissions/${id}/status`, { status: 'APPROVED' });
    const answers = await Promise.all([1, 2, 3].map(() => admin(spec.server).post('/api/referral-commissions/payouts', { partnerId: p.partner.id })));
    const ok = answers.filter((r) => r.status === 201);
    expect(answers.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'nothing_to_pay')), JSON.stringify(answers.map((r) => r.body))).to.equal(true);
    const batched = ok.flatMap((r) => r.body.items.flatMap((batch: { commissionIds: string[] }) => batch.commissionIds));
    expect(batched.sort()).to.deep.equal([...ids].sort());
    expect(new Set(batched).size).to.equal(batched.length);
    const rows = await spec.server.db.knex('referral_payouts').where({ partner_id: p.partner.id });
    expect(rows.reduce((sum: number, r: { commission_count: number }) => sum + r.commission_count, 0)).to.equal(4);
  });
});
