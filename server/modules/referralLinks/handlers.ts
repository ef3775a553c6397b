import type { OperationHandlers } from '../../platform/http/handler.ts';
import { bytes, json } from '../../platform/http/handler.ts';
import { createReferralLink } from './commands/createReferralLink.ts';
import { resolveReferralLink } from './commands/resolveReferralLink.ts';
import { updateReferralLink } from './commands/updateReferralLink.ts';
import { uploadReferralLinkSticker } from './commands/uploadReferralLinkSticker.ts';
import { presentLink } from './presenters.ts';
import { listLinks } from './queries.ts';
import { linkQrSvg } from './sticker.ts';

export const handlers = {
  async listReferralLinks(call) {
    const limit = call.query.limit ?? 20;
    const offset = call.query.offset ?? 0;
    const page = await listLinks({ partnerId: call.query.partnerId, status: call.query.status, channel: call.query.channel, limit, offset });
    return json(200, { items: page.items.map((link) => presentLink(link, call.app.config.publicSiteUrl)), total: page.total, limit, offset });
  },

  async createReferralLink(call) {
    return json(201, presentLink(await createReferralLink(call.app, call.body), call.app.config.publicSiteUrl));
  },

  async updateReferralLink(call) {
    return json(200, presentLink(await updateReferralLink(call.app, call.params.linkId, call.body), call.app.config.publicSiteUrl));
  },

  async resolveReferralLink(call) {
    const answer = await resolveReferralLink(call.app, call.ip, call.params.slug, call.body?.locale);
    return json(200, answer, { 'Cache-Control': 'no-store' });
  },

  async uploadReferralLinkSticker(call) {
    const file = call.file('file');
    const body = file ? Buffer.from(file.bytes) : call.rawBody;
    const uploader = call.auth.authSource === 'session' ? (call.auth.identity.accountId ?? null) : null;
    const link = await uploadReferralLinkSticker(call.app, call.params.linkId, body ?? Buffer.alloc(0), uploader);
    return json(200, presentLink(link, call.app.config.publicSiteUrl));
  },

  async getReferralLinkQr(call) {
    const svg = await linkQrSvg(call.app, call.params.linkId);
    return bytes(Buffer.from(svg, 'utf8'), 'image/svg+xml', { headers: { 'Cache-Control': 'private, no-cache' } });
  },
} satisfies Partial<OperationHandlers>;
