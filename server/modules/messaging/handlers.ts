import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { Forbidden } from '../../platform/http/problem.ts';
import { noteAddressOf } from '../assistant/index.ts';
import { receiveMessagingWebhook } from './commands/receiveMessagingWebhook.ts';
import { sendMessagingTemplate } from './commands/sendMessagingTemplate.ts';

export const handlers = {
  verifyMessagingWebhook(call) {
    // The verify token itself was checked by the access layer (x-access messaging-verify-token).
    if (call.query['hub.mode'] !== 'subscribe') throw Forbidden('invalid_mode', 'hub.mode must be subscribe.');
    return { status: 200, body: String(call.query['hub.challenge'] ?? ''), contentType: 'text/plain; charset=utf-8' };
  },

  async receiveMessagingWebhook(call) {
    const input = { body: call.body, rawBody: call.rawBody, signature: call.header('x-hub-signature-256'), log: call.log };
    // The agent's tools call this service back at the address this request arrived on (once the signature holds).
    const received = await receiveMessagingWebhook(call.app, input, () => noteAddressOf(call));
    return json(200, received);
  },

  async sendMessagingTemplate(call) {
    return json(200, await sendMessagingTemplate(call.app, call.body, call.log));
  },
} satisfies Partial<OperationHandlers>;
