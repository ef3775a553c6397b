import { iso } from '../presenting.ts';
import { staffText, untranslated, type LocaleConfig } from '../../domain/localizedInput.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { Show } from './models.ts';

/** A show for staff (allow-list): every site locale filled, with the untranslated ones named. */
export function presentShow(show: Show, config: LocaleConfig): Schema<'Show'> {
  return {
    id: show.id,
    code: show.code,
    slug: show.slug,
    status: show.status,
    canonical: show.canonical,
    title: staffText(show.title, config),
    summary: staffText(show.summary, config),
    description: staffText(show.description, config),
    untranslated: untranslated({ title: show.title, summary: show.summary, description: show.description }, config),
    durationMinutes: show.durationMinutes,
    minimumAge: show.minimumAge ?? null,
    imageBlobIds: [...(show.imageBlobIds ?? [])],
    sortOrder: show.sortOrder,
    publishedAt: iso(show.publishedAt),
    archivedAt: iso(show.archivedAt),
    createdAt: iso(show.createdAt)!,
    updatedAt: iso(show.updatedAt)!,
  };
}
