import { iso } from '../presenting.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { ReferralLink } from './models.ts';

/** A link for admins, with its `/go/{slug}` URL and its code (`link.code` eager-loaded). */
export function presentLink(link: ReferralLink, siteUrl: string): Schema<'Link'> {
  return {
    id: link.id,
    slug: link.slug,
    url: `${siteUrl}/go/${link.slug}`,
    destination: link.destination,
    channel: link.channel,
    label: link.label,
    status: link.status,
    partnerId: link.partnerId,
    codeId: link.codeId,
    code: link.code?.code ?? null,
    stickerUrl: link.stickerUrl,
    createdAt: iso(link.createdAt)!,
    updatedAt: iso(link.updatedAt)!,
  };
}
