import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { createReferralPartner } from './commands/createReferralPartner.ts';
import { updateReferralPartner } from './commands/updateReferralPartner.ts';
import { presentDirectoryEntry, presentPartner, presentProfile } from './presenters.ts';
import { directory, findPartnerOrFail, listPartners, partnerMetrics, profile } from './queries.ts';

export const handlers = {
  async listReferralPartners(call) {
    const limit = call.query.limit ?? 20;
    const offset = call.query.offset ?? 0;
    const page = await listPartners({ status: call.query.status, type: call.query.type, limit, offset });
    return json(200, { items: page.items.map(presentPartner), total: page.total, limit, offset });
  },

  async createReferralPartner(call) {
    return json(201, presentPartner(await createReferralPartner(call.app, call.body)));
  },

  async getReferralPartner(call) {
    return json(200, presentPartner(await findPartnerOrFail(call.params.partnerId)));
  },

  async updateReferralPartner(call) {
    return json(200, presentPartner(await updateReferralPartner(call.app, call.params.partnerId, call.body)));
  },

  async getReferralPartnerMetrics(call) {
    return json(200, await partnerMetrics(call.app.db.knex, call.params.partnerId));
  },

  async getReferralPartnerDirectory(call) {
    return json(200, { items: (await directory(call.app.db.knex)).map(presentDirectoryEntry) });
  },

  async getReferralPartnerProfile(call) {
    const { siteLocales, defaultLocale, publicSiteUrl } = call.app.config;
    const locale = call.query.locale && siteLocales.includes(call.query.locale) ? call.query.locale : defaultLocale;
    return json(200, presentProfile(await profile(call.app.db.knex, call.params.slug), locale, publicSiteUrl));
  },
} satisfies Partial<OperationHandlers>;
