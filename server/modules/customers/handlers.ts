import { staffActor } from '../../domain/actors.ts';
import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { listMessages } from '../email/index.ts';
import { presentEmailListItem } from '../email/index.ts';
import { adoptCustomerContact } from './commands/adoptCustomerContact.ts';
import { deleteCustomer } from './commands/deleteCustomer.ts';
import { mergeCustomers } from './commands/mergeCustomers.ts';
import { sendCustomerEmail } from './commands/sendCustomerEmail.ts';
import { updateCustomer } from './commands/updateCustomer.ts';
import { presentCustomer, presentCustomerDetail } from './presenters.ts';
import { customerDetail, findCustomerOrFail, listCustomers } from './queries.ts';

export const handlers = {
  async listCustomers(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listCustomers(call.app.db.knex, { q: query.q, includeDeleted: query.includeDeleted ?? false, limit, offset });
    return json(200, { items: page.items.map(presentCustomer), total: page.total, limit, offset });
  },

  async getCustomer(call) {
    const detail = await customerDetail(call.app.db.knex, call.params.customerId);
    return json(200, presentCustomerDetail(detail, call.app.config.defaultLocale));
  },

  async updateCustomer(call) {
    return json(200, presentCustomer(await updateCustomer(call.app, call.params.customerId, call.body)));
  },

  async adoptCustomerContact(call) {
    return json(200, presentCustomer(await adoptCustomerContact(call.app, call.params.customerId, call.body)));
  },

  async mergeCustomers(call) {
    return json(200, presentCustomer(await mergeCustomers(call.app, staffActor(call.auth), call.params.customerId, call.body.duplicateCustomerId)));
  },

  async listCustomerEmailMessages(call) {
    const knex = call.app.db.knex;
    await findCustomerOrFail(knex, call.params.customerId);
    const page = await listMessages(knex, { customerId: call.params.customerId }, { limit: call.query.limit ?? 20, offset: call.query.offset ?? 0 });
    return json(200, { ...page, items: page.items.map(presentEmailListItem) });
  },

  async sendCustomerEmail(call) {
    return json(201, presentEmailListItem(await sendCustomerEmail(call.app, call.params.customerId, call.body)));
  },

  async deleteCustomer(call) {
    await deleteCustomer(call.app, call.params.customerId);
    return noContent();
  },
} satisfies Partial<OperationHandlers>;
