import { randomUUID } from 'node:crypto';
import { assistantFor } from '../../assistant/index.ts';
import type { OperationHandlers } from '../../platform/http/handler.ts';
import { noteAddressOf } from '../assistant/index.ts';
import { json } from '../../platform/http/handler.ts';
import { Problem, Unprocessable } from '../../platform/http/problem.ts';
import { dynamicBlock, type ChatChannel } from '../../platform/integrations/manychat.ts';
import { CHAT_PLATFORM_TURN_QUEUE, type ChatTurnJobData } from './jobs.ts';
import { acknowledgement, guestLocale, messageText, subscriberId } from './service.ts';
import { polishAnswer, turnInsert } from './turns.ts';

/**
 * Spec §4.7: `response_mode: async` selects the asynchronous path. Absent, null or blank keeps it too (the
 * platform's flows send `async`, and §4.7's rule 1 answers a subscriber asynchronously); any other value
 * (`sync`, …) asks for the answer in this response.
 */
function wantsAsync(mode: unknown): boolean {
  if (mode === undefined || mode === null) return true;
  const value = String(mode).trim().toLowerCase();
  return value === '' || value === 'async';
}

export const handlers = {
  async receiveChatPlatformMessage(call) {
    const body = call.body as Record<string, any>;
    const channel = (body.channel ?? 'facebook') as ChatChannel;
    const text = messageText(body);
    if (!text) {
      throw Unprocessable('no_message_text', 'The body carries no message text.', [
        { path: 'body/last_input_text', message: 'one of last_input_text, text, message, query, contact.last_input_text is required', code: 'required' },
      ]);
    }
    const locale = guestLocale(body, call.app.config.siteLocales);
    const subscriber = subscriberId(body);
    const knex = call.app.db.knex;
    // The agent's tools call this service back at the address this request arrived on.
    noteAddressOf(call);

    if (subscriber && wantsAsync(body.response_mode)) {
      // The turn row and its job in one statement (one round trip, one commit): both or neither, so a restart
      // loses nothing, and the acknowledgement waits for as little as it can.
      const turnId = randomUUID();
      const turn = turnInsert(knex, { id: turnId, source: 'chat-platform', channel, recipient: subscriber, locale, text });
      await call.app.jobs.enqueue(CHAT_PLATFORM_TURN_QUEUE, { turnId } satisfies ChatTurnJobData, { alongside: turn });
      call.log.info({ turnId, channel, locale }, 'chat-platform turn queued');
      return json(200, dynamicBlock(channel, acknowledgement(locale)));
    }

    // No subscriber id (a later send is impossible), or a `response_mode` other than `async`: the answer now.
    let reply;
    try {
      reply = await assistantFor(call.app).reply({ messages: [{ role: 'user', text }], locale, channel, traceId: call.requestId });
    } catch (err) {
      call.log.error({ err }, 'the agent failed on a synchronous chat-platform message');
      throw new Problem(503, 'assistant_unavailable', 'Service unavailable', { detail: 'The assistant could not answer; try again.' });
    }
    return json(200, dynamicBlock(channel, await polishAnswer(call.app, call.log, reply, locale)));
  },
} satisfies Partial<OperationHandlers>;
