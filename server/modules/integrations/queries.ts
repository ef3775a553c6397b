import { MetaCapiEvent } from '../analytics/index.ts';

export interface MetaEventFilters {
  eventName?: string;
  eventId?: string;
  source?: string;
  status?: string;
  createdFrom?: string;
  createdTo?: string;
  limit: number;
  offset: number;
}

/** The Meta send audit rows (analytics' `meta_capi_events`), newest first, with the total for paging. */
export async function listMetaEvents(filters: MetaEventFilters): Promise<{ items: MetaCapiEvent[]; total: number }> {
  const filtered = MetaCapiEvent.query().modify((q) => {
    if (filters.eventName) q.where('event_name', filters.eventName);
    if (filters.eventId) q.where('event_id', filters.eventId);
    if (filters.source) q.where('source', filters.source);
    if (filters.status) q.where('status', filters.status);
    if (filters.createdFrom) q.where('created_at', '>=', new Date(filters.createdFrom));
    if (filters.createdTo) q.where('created_at', '<', new Date(filters.createdTo));
  });
  const total = await filtered.clone().resultSize();
  const items = await filtered.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(filters.limit).offset(filters.offset);
  return { items, total };
}
