import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { createPromoCode } from './commands/createPromoCode.ts';
import { deletePromoCode } from './commands/deletePromoCode.ts';
import { updatePromoCode } from './commands/updatePromoCode.ts';
import { presentPromoCode } from './presenters.ts';
import { findPromoCodeOrFail, listPromoCodes } from './queries.ts';

export const handlers = {
  async listPromoCodes(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listPromoCodes({ status: query.status, q: query.q, limit, offset });
    return json(200, { items: page.items.map(presentPromoCode), total: page.total, limit, offset });
  },

  async createPromoCode(call) {
    return json(201, presentPromoCode(await createPromoCode(call.app, call.body)));
  },

  async getPromoCode(call) {
    return json(200, presentPromoCode(await findPromoCodeOrFail(call.params.promoCodeId)));
  },

  async updatePromoCode(call) {
    return json(200, presentPromoCode(await updatePromoCode(call.app, call.params.promoCodeId, call.body)));
  },

  async deletePromoCode(call) {
    await deletePromoCode(call.app, call.params.promoCodeId);
    return noContent();
  },
} satisfies Partial<OperationHandlers>;
