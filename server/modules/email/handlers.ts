import { json, type OperationHandlers } from '../../platform/http/handler.ts';
import { presentEmailListItem, presentEmailMessage, presentEmailMessageContent } from './presenters.ts';
import { getMessage, listMessages } from './queries.ts';
// The guest's hold-expired message is queued by the hold expiry (registered at boot, with this module).

export const handlers = {
  async listEmailMessages({ query, app }) {
    const { limit, offset, ...filters } = query;
    const page = await listMessages(app.db.knex, filters, { limit, offset });
    return json(200, { ...page, items: page.items.map(presentEmailListItem) });
  },

  async getEmailMessage({ params, app }) {
    return json(200, presentEmailMessage(await getMessage(app.db.knex, params.messageId)));
  },

  async getEmailMessageContent({ params, app }) {
    return json(200, presentEmailMessageContent(await getMessage(app.db.knex, params.messageId, { withSnapshots: true })));
  },
} satisfies Partial<OperationHandlers>;
