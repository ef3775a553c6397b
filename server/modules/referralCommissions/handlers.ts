import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { createReferralPayouts } from './commands/createReferralPayouts.ts';
import { updateReferralCommissionStatus } from './commands/updateReferralCommissionStatus.ts';
import { presentCommission, presentPayout } from './presenters.ts';
import { findPayoutOrFail, listCommissions, listPayouts } from './queries.ts';

export const handlers = {
  async listReferralCommissions(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listCommissions({ partnerId: query.partnerId, status: query.status, from: query.from, to: query.to, limit, offset });
    return json(200, { items: page.items.map(presentCommission), total: page.total, limit, offset });
  },

  async updateReferralCommissionStatus(call) {
    return json(200, presentCommission(await updateReferralCommissionStatus(call.app, call.params.commissionId, call.body.status, call.body.reason)));
  },

  async createReferralPayouts(call) {
    const key = call.header('idempotency-key') || undefined;
    const identity = call.auth.identity;
    const createdBy = identity.accountId ?? (identity.apiKeyId ? `api-key:${identity.apiKeyId}` : 'superuser-token');
    const answer = await createReferralPayouts(call.app, call.body ?? {}, createdBy, key);
    return json(201, { items: answer.payouts.map(presentPayout) }, answer.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  },

  async listReferralPayouts(call) {
    const limit = call.query.limit ?? 20;
    const offset = call.query.offset ?? 0;
    const page = await listPayouts({ partnerId: call.query.partnerId, limit, offset });
    return json(200, { items: page.items.map(presentPayout), total: page.total, limit, offset });
  },

  async getReferralPayout(call) {
    return json(200, presentPayout(await findPayoutOrFail(call.params.payoutId)));
  },
} satisfies Partial<OperationHandlers>;
