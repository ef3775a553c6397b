import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { sendMetaOutboundEvent } from './commands/sendMetaOutboundEvent.ts';
import { customerIntelligence, readAggregate, resolveRange, summary, topShows } from './queries.ts';

export const handlers = {
  async getAnalyticsSummary(call) {
    const range = resolveRange(call.query, call.app.config.venueTimezone);
    return json(200, await summary(call.app.db, range));
  },

  async getAnalyticsTopShows(call) {
    const range = resolveRange(call.query, call.app.config.venueTimezone);
    return json(200, await readAggregate(call.app.db.knex, (trx) => topShows(trx, range, call.query.sort ?? 'revenue', call.query.limit ?? 10, call.app.config.defaultLocale)));
  },

  async getCustomerIntelligence(call) {
    const range = resolveRange(call.query, call.app.config.venueTimezone);
    return json(200, await customerIntelligence(call.app.db, range, call.app.config.defaultLocale));
  },

  async sendMetaOutboundEvent(call) {
    const accepted = await sendMetaOutboundEvent(call.app, call.body, { ip: call.ip, userAgent: call.header('user-agent') });
    return json(202, accepted);
  },
} satisfies Partial<OperationHandlers>;
