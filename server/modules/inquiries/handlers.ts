import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { actorLabel, staffActor } from '../../domain/actors.ts';
import { archiveInquiry } from './commands/archiveInquiry.ts';
import { createInquiry } from './commands/createInquiry.ts';
import { followUpInquiry } from './commands/followUpInquiry.ts';
import { updateInquiry } from './commands/updateInquiry.ts';
import { presentFollowUp, presentInquiry, presentInquiryDetail, presentSubmittedInquiry } from './presenters.ts';
import { findInquiryOrFail, followUpsOf, listInquiries } from './queries.ts';
import { throttleInquiry } from './services.ts';

export const handlers = {
  async createInquiry(call) {
    await throttleInquiry(call.app, call.ip);
    const inquiry = await createInquiry(call.app, call.body, call.ip, call.header('idempotency-key') || undefined);
    return json(201, presentSubmittedInquiry(inquiry), { 'Cache-Control': 'no-store' });
  },

  async listInquiries(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listInquiries(call.app.db.knex, { status: query.status, type: query.type, assigneeId: query.assigneeId, q: query.q, limit, offset });
    return json(200, { items: page.items.map(presentInquiry), total: page.total, limit, offset });
  },

  async getInquiry(call) {
    const knex = call.app.db.knex;
    const inquiry = await findInquiryOrFail(knex, call.params.inquiryId);
    return json(200, presentInquiryDetail(inquiry, await followUpsOf(knex, inquiry.id)));
  },

  async updateInquiry(call) {
    return json(200, presentInquiry(await updateInquiry(call.app, call.params.inquiryId, call.body)));
  },

  async followUpInquiry(call) {
    const followUp = await followUpInquiry(call.app, call.params.inquiryId, call.body, actorLabel(staffActor(call.auth)));
    return json(201, presentFollowUp(followUp));
  },

  async archiveInquiry(call) {
    await archiveInquiry(call.app, call.params.inquiryId);
    return noContent();
  },
} satisfies Partial<OperationHandlers>;
