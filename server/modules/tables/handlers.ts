import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { presentTable } from './presenters.ts';
import { createTable, deleteTable, findTableOrFail, listTables, updateTable } from './service.ts';

export const handlers = {
  async listTables({ query }) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listTables({ zone: query.zone, limit, offset });
    return json(200, { items: page.items.map(presentTable), total: page.total, limit, offset });
  },

  async getTable({ params }) {
    return json(200, presentTable(await findTableOrFail(params.tableId)));
  },

  async createTable({ body }) {
    return json(201, presentTable(await createTable(body)));
  },

  async updateTable({ params, body }) {
    return json(200, presentTable(await updateTable(params.tableId, body)));
  },

  async deleteTable({ params }) {
    await deleteTable(params.tableId);
    return noContent();
  },
} satisfies Partial<OperationHandlers>;
