import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { createReferralCode } from './commands/createReferralCode.ts';
import { deleteReferralCode } from './commands/deleteReferralCode.ts';
import { updateReferralCode } from './commands/updateReferralCode.ts';
import { presentCode } from './presenters.ts';
import { findCodeOrFail, listCodes } from './queries.ts';

export const handlers = {
  async listReferralCodes(call) {
    const limit = call.query.limit ?? 20;
    const offset = call.query.offset ?? 0;
    const page = await listCodes({ partnerId: call.query.partnerId, status: call.query.status, limit, offset });
    return json(200, { items: page.items.map(presentCode), total: page.total, limit, offset });
  },

  async createReferralCode(call) {
    return json(201, presentCode(await createReferralCode(call.app, call.body)));
  },

  async getReferralCode(call) {
    return json(200, presentCode(await findCodeOrFail(call.params.codeId)));
  },

  async updateReferralCode(call) {
    return json(200, presentCode(await updateReferralCode(call.app, call.params.codeId, call.body)));
  },

  async deleteReferralCode(call) {
    await deleteReferralCode(call.app, call.params.codeId);
    return noContent();
  },
} satisfies Partial<OperationHandlers>;
