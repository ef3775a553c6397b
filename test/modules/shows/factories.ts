import { randomUUID } from 'node:crypto';
import { Show } from '../../../server/modules/shows/models.ts';

/** The shows module's rows. */

const suffix = () => randomUUID().replace(/-/g, '').slice(0, 6).toUpperCase();

export type ShowOverrides = Partial<
  Pick<Show, 'code' | 'slug' | 'status' | 'canonical' | 'title' | 'summary' | 'description' | 'durationMinutes' | 'minimumAge' | 'sortOrder' | 'imageBlobIds' | 'publishedAt'>
>;

/** A show row, as `buildShow` answers it. */
export type ShowRow = Show;

/**
 * A show as staff would create it: a DRAFT, not canonical, titled in English and Vietnamese, no summary or
 * description, 90 minutes. A non-draft status is published now (`publishedAt`) unless told otherwise.
 */
export async function buildShow(overrides: ShowOverrides = {}) {
  const code = overrides.code ?? `S${suffix()}`;
  const status = overrides.status ?? 'DRAFT';
  return Show.query().insertAndFetch({
    code,
    slug: overrides.slug ?? `show-${code.toLowerCase()}`,
    status,
    canonical: overrides.canonical ?? false,
    title: overrides.title ?? { en: `Show ${code}`, vi: `Chương trình ${code}` },
    summary: overrides.summary ?? {},
    description: overrides.description ?? {},
    durationMinutes: overrides.durationMinutes ?? 90,
    minimumAge: overrides.minimumAge ?? null,
    imageBlobIds: overrides.imageBlobIds ?? [],
    sortOrder: overrides.sortOrder ?? 0,
    publishedAt: overrides.publishedAt !== undefined ? overrides.publishedAt : status === 'DRAFT' ? null : new Date(),
  });
}
