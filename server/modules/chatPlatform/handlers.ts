import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { noteAddressOf } from '../assistant/index.ts';
import { receiveChatPlatformMessage } from './commands/receiveChatPlatformMessage.ts';

export const handlers = {
  async receiveChatPlatformMessage(call) {
    const input = { body: call.body as Record<string, any>, log: call.log, requestId: call.requestId };
    // The agent's tools call this service back at the address this request arrived on.
    const block = await receiveChatPlatformMessage(call.app, input, () => noteAddressOf(call));
    return json(200, block);
  },
} satisfies Partial<OperationHandlers>;
