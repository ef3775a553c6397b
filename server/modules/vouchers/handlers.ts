import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { actorLabel, staffActor } from '../../domain/actors.ts';
import { createVoucher } from './commands/createVoucher.ts';
import { deleteVoucher } from './commands/deleteVoucher.ts';
import { updateVoucher } from './commands/updateVoucher.ts';
import { throttleBalanceCheck } from './limits.ts';
import { presentVoucher, presentVoucherRedemption } from './presenters.ts';
import { findVoucherOrFail, listVouchers, voucherBalance, voucherRedemptions } from './queries.ts';

export const handlers = {
  async listVouchers(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const now = new Date();
    const page = await listVouchers({ status: query.status, q: query.q, limit, offset }, now);
    return json(200, { items: page.items.map((voucher) => presentVoucher(voucher, now)), total: page.total, limit, offset });
  },

  async createVoucher(call) {
    const voucher = await createVoucher(call.app, call.body, actorLabel(staffActor(call.auth)));
    return json(201, presentVoucher(voucher, new Date()));
  },

  async getVoucher(call) {
    const voucher = await findVoucherOrFail(call.params.voucherId);
    const redemptions = await voucherRedemptions(call.app.db.knex, voucher.id);
    return json(200, { voucher: presentVoucher(voucher, new Date()), redemptions: redemptions.map(presentVoucherRedemption) });
  },

  async updateVoucher(call) {
    return json(200, presentVoucher(await updateVoucher(call.app, call.params.voucherId, call.body), new Date()));
  },

  async deleteVoucher(call) {
    await deleteVoucher(call.app, call.params.voucherId);
    return noContent();
  },

  async checkVoucherBalance(call) {
    await throttleBalanceCheck(call.app, call.ip);
    const balance = await voucherBalance(call.body.code);
    if (!balance) throw NotFound('No such voucher.');
    return json(200, balance, { 'Cache-Control': 'no-store' });
  },
} satisfies Partial<OperationHandlers>;
