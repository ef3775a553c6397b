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
    // `vi-VN` reads `vi`; a locale the site does not have reads the default one.
    const asked = call.query.locale?.toLowerCase().split(/[-_]/)[0];
    const locale = asked && siteLocales.includes(asked) ? asked : defaultLocale;
    const body = presentProfile(await profile(call.app.db.knex, call.params.slug), locale, defaultLocale, publicSiteUrl);
    return json(200, body, body.descriptionLocale ? { 'Content-Language': body.descriptionLocale } : {});
  },
} satisfies Partial<OperationHandlers>;
