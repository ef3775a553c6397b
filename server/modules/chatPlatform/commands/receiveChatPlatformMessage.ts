import { randomUUID } from 'node:crypto';
import { assistantFor } from '../../../assistant/index.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Problem, Unprocessable } from '../../../platform/http/problem.ts';
import { dynamicBlock, type ChatChannel } from '../../../platform/integrations/manychat.ts';
import type { Logger } from '../../../platform/logger.ts';
import { CHAT_PLATFORM_TURN_QUEUE, type ChatTurnJobData } from '../jobs.ts';
import { turnInsert } from '../queries.ts';
import { acknowledgement, guestLocale, messageText, subscriberId } from '../service.ts';
import { polishAnswer } from '../turns.ts';

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

/**
 * A ManyChat External Request (spec §4.7): with a subscriber id and the asynchronous mode, the turn and its job are
 * written and the reply is an acknowledgement (the answer is sent later by the turn's job); otherwise the agent
 * answers in this response. Returns the platform's dynamic block.
 *
 * No unit of work: the turn row and its job are one statement (one round trip, one commit: both or neither), so
 * the acknowledgement waits for as little as it can; the synchronous path writes nothing.
 */
export async function receiveChatPlatformMessage(
  app: AppContext,
  input: { body: Record<string, any>; log: Logger; requestId: string },
  /** Called once the message is accepted (the agent's tools call this service back at the request's address). */
  accepted: () => void = () => undefined,
) {
  const { body, log } = input;
  const channel = (body.channel ?? 'facebook') as ChatChannel;
  const text = messageText(body);
  if (!text) {
    throw Unprocessable('no_message_text', 'The body carries no message text.', [
      { path: 'body/last_input_text', message: 'one of last_input_text, text, message, query, contact.last_input_text is required', code: 'required' },
    ]);
  }
  const locale = guestLocale(body, app.config.siteLocales);
  const subscriber = subscriberId(body);
  accepted();

  if (subscriber && wantsAsync(body.response_mode)) {
    const turnId = randomUUID();
    const turn = turnInsert(app.db.knex, { id: turnId, source: 'chat-platform', channel, recipient: subscriber, locale, text });
    await app.jobs.enqueue(CHAT_PLATFORM_TURN_QUEUE, { turnId } satisfies ChatTurnJobData, { alongside: turn });
    log.info({ turnId, channel, locale }, 'chat-platform turn queued');
    return dynamicBlock(channel, acknowledgement(locale));
  }

  // No subscriber id (a later send is impossible), or a `response_mode` other than `async`: the answer now.
  let reply;
  try {
    reply = await (await assistantFor(app)).reply({ messages: [{ role: 'user', text }], locale, channel, traceId: input.requestId });
  } catch (err) {
    log.error({ err }, 'the agent failed on a synchronous chat-platform message');
    throw new Problem(503, 'assistant_unavailable', 'Service unavailable', { detail: 'The assistant could not answer; try again.' });
  }
  return dynamicBlock(channel, await polishAnswer(app, log, reply, locale));
}
