import type { Schema } from '../../platform/http/handler.ts';
import type { MetaCapiEvent } from '../analytics/index.ts';

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** One audit row of a Meta send attempt (allow-list; the table holds no user data either). */
export const presentMetaEvent = (row: MetaCapiEvent): Schema<'MetaConversionsApiEvent'> => ({
  id: String(row.id),
  eventName: row.eventName,
  eventId: row.eventId,
  source: row.source,
  status: row.status,
  httpStatus: row.httpStatus,
  fbtraceId: row.fbtraceId,
  eventsReceived: row.eventsReceived,
  errorMessage: row.errorMessage,
  attempt: row.attempt,
  startedAt: iso(row.startedAt),
  finishedAt: iso(row.finishedAt),
  createdAt: iso(row.createdAt),
});
