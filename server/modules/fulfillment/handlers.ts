import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { staffActor } from '../../domain/actors.ts';
import { upsertFulfillmentItems } from './commands/upsertFulfillmentItems.ts';
import { countOutcomes } from './outcomes.ts';
import { presentFulfillmentItem } from './presenters.ts';
import { listFulfillmentItems } from './queries.ts';

export const handlers = {
  async listFulfillmentItems({ app, query }) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listFulfillmentItems({ kind: query.kind, limit, offset });
    return json(200, { items: page.items.map((item) => presentFulfillmentItem(item, app.config)), total: page.total, limit, offset });
  },

  async upsertFulfillmentItems({ app, auth, body }) {
    const results = await upsertFulfillmentItems(app, body.items, staffActor(auth));
    return json(200, {
      counts: countOutcomes(results),
      results: results.map(({ code, outcome, item }) => ({ code, outcome, item: presentFulfillmentItem(item, app.config) })),
    });
  },
} satisfies Partial<OperationHandlers>;
