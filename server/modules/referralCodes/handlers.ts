import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { presentCode } from './presenters.ts';
import { archiveCode, createCode, findCodeOrFail, listCodes, updateCode } from './service.ts';

export const handlers = {
  async listReferralCodes(call) {
    const limit = call.query.limit ?? 20;
    const offset = call.query.offset ?? 0;
    const page = await listCodes(call.app.db.knex, { partnerId: call.query.partnerId, status: call.query.status, limit, offset });
    return json(200, { items: page.items.map(presentCode), total: page.total, limit, offset });
  },

  async createReferralCode(call) {
    return json(201, presentCode(await createCode(call.app.db.knex, call.body)));
  },

  async getReferralCode(call) {
    return json(200, presentCode(await findCodeOrFail(call.app.db.knex, call.params.codeId)));
  },

  async updateReferralCode(call) {
    return json(200, presentCode(await updateCode(call.app.db.knex, call.params.codeId, call.body)));
  },

  async deleteReferralCode(call) {
    await archiveCode(call.app.db.knex, call.params.codeId);
    return noContent();
  },
} satisfies Partial<OperationHandlers>;
