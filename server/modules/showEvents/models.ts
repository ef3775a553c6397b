import { BaseModel } from '../../platform/db/model.ts';

import { SHOW_EVENT_STATUSES, type ShowEventStatus } from '../../domain/availability.ts';

export { SHOW_EVENT_STATUSES, type ShowEventStatus };

/**
 * One performance of a show (DOMAIN.md "Catalog"): `SCHEDULED` → `CANCELLED` (the cancellation flow) or
 * `COMPLETED`. `slug` is `<show slug>-<yyyy-mm-dd>-<hhmm>` in VENUE_TIMEZONE; null only on rows that predate
 * slugs (backfill-event-slugs fills them).
 */
export class ShowEvent extends BaseModel {
  static override tableName = 'show_events';
  showId!: string;
  slug!: string | null;
  startsAt!: Date;
  doorsAt!: Date | null;
  capacity!: number;
  salesOpen!: boolean;
  status!: ShowEventStatus;
  staffNotes!: string | null;
  cancelledAt!: Date | null;
  cancellationReason!: string | null;
  completedAt!: Date | null;
}
