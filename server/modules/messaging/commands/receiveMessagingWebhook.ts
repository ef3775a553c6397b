import type { AppContext } from '../../../platform/context.ts';
import { Problem } from '../../../platform/http/problem.ts';
import type { Logger } from '../../../platform/logger.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { insertTurn } from '../../chatPlatform/index.ts';
import { MESSAGING_REPLY_QUEUE } from '../jobs.ts';
import { inboundTexts, localeOfText, validSignature } from '../service.ts';

/**
 * A WhatsApp Cloud API notification: its signature checked (when MESSAGING_APP_SECRET is set), then each inbound
 * text becomes a QUEUED turn and its `messaging.reply` job, all in one unit of work; a message id already received
 * (a duplicate delivery) is counted, not queued again. Media, reactions and statuses are counted as ignored.
 */
export async function receiveMessagingWebhook(
  app: AppContext,
  input: { body: unknown; rawBody: Buffer | undefined; signature: string; log: Logger },
  /** Called once the notification is accepted (the agent's tools call this service back at the request's address). */
  accepted: () => void = () => undefined,
): Promise<{ queued: number; duplicates: number; ignored: number }> {
  const secret = app.config.messaging.appSecret;
  if (secret && !validSignature(input.rawBody ?? Buffer.alloc(0), input.signature, secret)) {
    throw new Problem(401, 'invalid_signature', 'Authentication required', { detail: 'X-Hub-Signature-256 is missing or does not match the body.' });
  }
  const { texts, ignored } = inboundTexts(input.body);
  accepted();
  let queued = 0;
  const siteLocales = app.config.siteLocales;
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    for (const message of texts) {
      const turnId = await insertTurn(trx, {
        source: 'whatsapp',
        channel: 'whatsapp',
        recipient: message.from,
        externalMessageId: message.id,
        locale: localeOfText(message.text, siteLocales),
        text: message.text,
      });
      if (!turnId) continue;
      await app.jobs.enqueue(MESSAGING_REPLY_QUEUE, { turnId }, { trx });
      queued++;
    }
  });
  const duplicates = texts.length - queued;
  if (texts.length) input.log.info({ queued, duplicates, ignored }, 'whatsapp messages received');
  return { queued, duplicates, ignored };
}
