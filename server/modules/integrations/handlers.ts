import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { presentMetaEvent } from './presenters.ts';
import { listMetaEvents } from './queries.ts';

export const handlers = {
  async listMetaConversionsApiEvents(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listMetaEvents({ ...query, limit, offset });
    return json(200, { items: page.items.map(presentMetaEvent), total: page.total, limit, offset });
  },
} satisfies Partial<OperationHandlers>;
