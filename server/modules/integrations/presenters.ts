const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

export interface MetaEventRow {
  id: string | number;
  event_name: string;
  event_id: string;
  source: 'BROWSER' | 'SERVER';
  status: 'SENT' | 'RETRYING' | 'FAILED';
  http_status: number | null;
  fbtrace_id: string | null;
  events_received: number | null;
  error_message: string | null;
  attempt: number;
  started_at: Date | string;
  finished_at: Date | string;
  created_at: Date | string;
}

/** One audit row of a Meta send attempt (allow-list; the table holds no user data either). */
export const presentMetaEvent = (row: MetaEventRow) => ({
  id: String(row.id),
  eventName: row.event_name,
  eventId: row.event_id,
  source: row.source,
  status: row.status,
  httpStatus: row.http_status,
  fbtraceId: row.fbtrace_id,
  eventsReceived: row.events_received,
  errorMessage: row.error_message,
  attempt: row.attempt,
  startedAt: iso(row.started_at),
  finishedAt: iso(row.finished_at),
  createdAt: iso(row.created_at),
});
