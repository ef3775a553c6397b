import { staffActor } from '../../domain/actors.ts';
import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { archiveWaitlistEntry } from './commands/archiveWaitlistEntry.ts';
import { joinWaitlist } from './commands/joinWaitlist.ts';
import { notifyWaitlistEntry } from './commands/notifyWaitlistEntry.ts';
import { updateWaitlistEntry } from './commands/updateWaitlistEntry.ts';
import { presentEntry, presentJoinReceipt } from './presenters.ts';
import { findEntryOrFail, listEntries } from './queries.ts';
import { throttleJoin } from './services.ts';

const current = {
  async joinWaitlist(call) {
    await throttleJoin(call.app, call.ip);
    await joinWaitlist(call.app, call.body);
    return json(201, presentJoinReceipt(call.body), { 'Cache-Control': 'no-store' });
  },

  async listWaitlistEntries(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listEntries(call.app.db.knex, { eventId: query.eventId, status: query.status, q: query.q, limit, offset });
    return json(200, { items: page.items.map(presentEntry), total: page.total, limit, offset });
  },

  async getWaitlistEntry(call) {
    return json(200, presentEntry(await findEntryOrFail(call.app.db.knex, call.params.entryId)));
  },

  async updateWaitlistEntry(call) {
    await updateWaitlistEntry(call.app, call.params.entryId, call.body);
    return json(200, presentEntry(await findEntryOrFail(call.app.db.knex, call.params.entryId)));
  },

  async notifyWaitlistEntry(call) {
    await notifyWaitlistEntry(call.app, staffActor(call.auth), call.params.entryId);
    return json(200, presentEntry(await findEntryOrFail(call.app.db.knex, call.params.entryId)));
  },

  async archiveWaitlistEntry(call) {
    await archiveWaitlistEntry(call.app, staffActor(call.auth), call.params.entryId);
    return noContent();
  },
} satisfies Partial<OperationHandlers>;

/**
 * `POST /api/public/waitlist`, the path before the spec's `POST /api/waitlist`, is a deprecated alias
 * (`x-deprecated-alias` in openapi/paths/waitlist.yaml): bound to the very same handler; the router adds
 * `Deprecation` and `Link` to its answers.
 */
export const handlers = {
  ...current,
  joinWaitlistDeprecated: current.joinWaitlist,
} satisfies Partial<OperationHandlers>;
