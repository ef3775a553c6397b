import { grantablePermissions } from '../../platform/http/contract.ts';
import { json, noContent, type OperationHandlers } from '../../platform/http/handler.ts';
import { createApiKey } from './commands/createApiKey.ts';
import { deleteApiKey } from './commands/deleteApiKey.ts';
import { updateApiKey } from './commands/updateApiKey.ts';
import { presentApiKey } from './presenters.ts';
import { listKeys } from './queries.ts';

export const handlers = {
  async listApiKeys({ query }) {
    return json(200, { items: (await listKeys({ userId: query.userId })).map(presentApiKey) });
  },

  async createApiKey({ body, app }) {
    const { key, apiKey } = await createApiKey(app, body);
    return json(201, { key, apiKey: presentApiKey(apiKey) });
  },

  listApiKeyPermissions({ app }) {
    const items = [...grantablePermissions(app.contract)].map(([permission, operations]) => ({ permission, operations }));
    return json(200, { items });
  },

  async updateApiKey({ params, body, app }) {
    return json(200, presentApiKey(await updateApiKey(app, params.apiKeyId, body)));
  },

  async deleteApiKey({ params, app }) {
    await deleteApiKey(app, params.apiKeyId);
    return noContent();
  },
} satisfies Partial<OperationHandlers>;
