import { actorLabel, staffActor } from '../../domain/actors.ts';
import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { createWebhookEndpoint } from './commands/createWebhookEndpoint.ts';
import { deleteWebhookEndpoint } from './commands/deleteWebhookEndpoint.ts';
import { redeliverWebhookMessage } from './commands/redeliverWebhookMessage.ts';
import { rotateWebhookEndpointSecret } from './commands/rotateWebhookEndpointSecret.ts';
import { updateWebhookEndpoint } from './commands/updateWebhookEndpoint.ts';
import { presentEndpoint, presentMessage, presentMessageDetail } from './presenters.ts';
import { attemptsOf, findEndpointOrFail, findMessageOrFail, listEndpoints, listMessages } from './queries.ts';

export const handlers = {
  async listWebhookEndpoints(call) {
    const limit = call.query.limit ?? 20;
    const offset = call.query.offset ?? 0;
    const page = await listEndpoints({ enabled: call.query.enabled, limit, offset });
    return json(200, { items: page.items.map((endpoint) => presentEndpoint(endpoint)), total: page.total, limit, offset });
  },

  async createWebhookEndpoint(call) {
    const { endpoint, secret } = await createWebhookEndpoint(call.app, call.body, actorLabel(staffActor(call.auth)));
    return json(201, { endpoint: presentEndpoint(endpoint), secret });
  },

  async getWebhookEndpoint(call) {
    return json(200, presentEndpoint(await findEndpointOrFail(call.params.endpointId)));
  },

  async updateWebhookEndpoint(call) {
    return json(200, presentEndpoint(await updateWebhookEndpoint(call.app, call.params.endpointId, call.body)));
  },

  async deleteWebhookEndpoint(call) {
    await deleteWebhookEndpoint(call.app, call.params.endpointId);
    return noContent();
  },

  async rotateWebhookEndpointSecret(call) {
    const { endpoint, secret } = await rotateWebhookEndpointSecret(call.app, call.params.endpointId);
    return json(200, { endpoint: presentEndpoint(endpoint), secret });
  },

  async listWebhookMessages(call) {
    const limit = call.query.limit ?? 20;
    const offset = call.query.offset ?? 0;
    const page = await listMessages({ endpointId: call.query.endpointId, status: call.query.status, eventType: call.query.eventType, limit, offset });
    return json(200, { items: page.items.map((message) => presentMessage(message, page.lastAttempts.get(message.id))), total: page.total, limit, offset });
  },

  async getWebhookMessage(call) {
    const message = await findMessageOrFail(call.params.messageId);
    return json(200, presentMessageDetail(message, await attemptsOf(message.id)));
  },

  async redeliverWebhookMessage(call) {
    const message = await redeliverWebhookMessage(call.app, call.params.messageId);
    return json(202, presentMessage(message, (await attemptsOf(message.id)).at(-1)));
  },
} satisfies Partial<OperationHandlers>;
