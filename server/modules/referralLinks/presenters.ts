import { iso } from '../presenting.ts';
import type { LinkRow } from './service.ts';

export function presentLink(row: LinkRow, siteUrl: string) {
  return {
    id: row.id,
    slug: row.slug,
    url: `${siteUrl}/go/${row.slug}`,
    destination: row.destination,
    channel: row.channel,
    label: row.label,
    status: row.status,
    partnerId: row.partner_id,
    codeId: row.code_id,
    code: row.code ?? null,
    stickerUrl: row.sticker_url,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}
