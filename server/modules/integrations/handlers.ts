import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { presentMetaEvent, type MetaEventRow } from './presenters.ts';

export const handlers = {
  async listMetaConversionsApiEvents(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const filtered = call.app.db.knex('meta_capi_events').modify((q) => {
      if (query.eventName) q.where('event_name', query.eventName);
      if (query.eventId) q.where('event_id', query.eventId);
      if (query.source) q.where('source', query.source);
      if (query.status) q.where('status', query.status);
      if (query.createdFrom) q.where('created_at', '>=', new Date(query.createdFrom));
      if (query.createdTo) q.where('created_at', '<', new Date(query.createdTo));
    });
    const [{ total }] = await filtered.clone().count({ total: '*' });
    const rows = (await filtered.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit).offset(offset).select('*')) as MetaEventRow[];
    return json(200, { items: rows.map(presentMetaEvent), total: Number(total), limit, offset });
  },
} satisfies Partial<OperationHandlers>;
