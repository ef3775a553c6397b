import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { Forbidden } from '../../platform/http/problem.ts';
import { notifyChatTranscript } from './commands/notifyChatTranscript.ts';

export const handlers = {
  async notifyChatTranscript(call) {
    // A server-to-server call: a browser always sends Origin on a cross-origin POST, so one carrying it is refused.
    if (call.header('origin')) throw Forbidden('browser_not_allowed', 'This endpoint is for the assistant service, not for browsers.');
    const receipt = await notifyChatTranscript(call.app, call.body);
    call.log.info({ transcriptId: receipt.id, messages: receipt.messageCount, emailed: Boolean(receipt.emailMessageId) }, 'chat transcript stored');
    return json(201, receipt);
  },
} satisfies Partial<OperationHandlers>;
