import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { actorLabel, staffActor } from '../../domain/actors.ts';
import { presentVoucher, presentVoucherRedemption } from './presenters.ts';
import { createVoucher, expireVoucher, findVoucherOrFail, listVouchers, throttleBalanceCheck, updateVoucher, voucherBalance, voucherRedemptions } from './service.ts';

export const handlers = {
  async listVouchers(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const now = new Date();
    const page = await listVouchers(call.app.db.knex, { status: query.status, q: query.q, limit, offset }, now);
    return json(200, { items: page.items.map((row) => presentVoucher(row, now)), total: page.total, limit, offset });
  },

  async createVoucher(call) {
    const row = await createVoucher(call.app.db.knex, call.body, actorLabel(staffActor(call.auth)));
    return json(201, presentVoucher(row, new Date()));
  },

  async getVoucher(call) {
    const knex = call.app.db.knex;
    const row = await findVoucherOrFail(knex, call.params.voucherId);
    const redemptions = await voucherRedemptions(knex, row.id);
    return json(200, { voucher: presentVoucher(row, new Date()), redemptions: redemptions.map(presentVoucherRedemption) });
  },

  async updateVoucher(call) {
    return json(200, presentVoucher(await updateVoucher(call.app.db.knex, call.params.voucherId, call.body), new Date()));
  },

  async deleteVoucher(call) {
    await expireVoucher(call.app.db.knex, call.params.voucherId);
    return noContent();
  },

  async checkVoucherBalance(call) {
    await throttleBalanceCheck(call.app, call.ip);
    const balance = await voucherBalance(call.app.db.knex, call.body.code);
    if (!balance) throw NotFound('No such voucher.');
    return json(200, balance, { 'Cache-Control': 'no-store' });
  },
} satisfies Partial<OperationHandlers>;
