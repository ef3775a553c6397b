import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { createTable } from './commands/createTable.ts';
import { deleteTable } from './commands/deleteTable.ts';
import { updateTable } from './commands/updateTable.ts';
import { presentTable } from './presenters.ts';
import { findTableOrFail, listTables } from './queries.ts';

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

  async createTable({ app, body }) {
    return json(201, presentTable(await createTable(app, body)));
  },

  async updateTable({ app, params, body }) {
    return json(200, presentTable(await updateTable(app, params.tableId, body)));
  },

  async deleteTable({ app, params }) {
    await deleteTable(app, params.tableId);
    return noContent();
  },
} satisfies Partial<OperationHandlers>;
