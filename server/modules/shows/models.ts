import { BaseModel } from '../../platform/db/model.ts';
import type { LocalizedText } from '../../domain/localized.ts';

export const SHOW_STATUSES = ['DRAFT', 'PUBLISHED', 'ARCHIVED'] as const;
export type ShowStatus = (typeof SHOW_STATUSES)[number];

/** A show (DOMAIN.md "Catalog"): `DRAFT` → `PUBLISHED` → `ARCHIVED`; a canonical show is never archived. */
export class Show extends BaseModel {
  static override tableName = 'shows';
  static override jsonAttributes = ['title', 'summary', 'description', 'imageBlobIds'];
  code!: string;
  slug!: string;
  status!: ShowStatus;
  canonical!: boolean;
  title!: LocalizedText;
  summary!: LocalizedText;
  description!: LocalizedText;
  durationMinutes!: number;
  /** The youngest age admitted; null: all ages (issue 34 §3). */
  minimumAge!: number | null;
  imageBlobIds!: string[];
  sortOrder!: number;
  publishedAt!: Date | null;
  archivedAt!: Date | null;
}
