import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { recordEmail } from '../../email/index.ts';
import { ChatTranscript } from '../models.ts';

export type NotifyChatTranscriptInput = operations['notifyChatTranscript']['requestBody']['content']['application/json'];

/**
 * Stores a website chat transcript and, when VENUE_NOTIFICATIONS_EMAIL is set, records its e-mail to the venue (the
 * ledger row and its send job), in one unit of work.
 */
export async function notifyChatTranscript(app: AppContext, body: NotifyChatTranscriptInput): Promise<{ id: string; messageCount: number; emailMessageId: string | null }> {
  const to = app.config.venueNotificationsEmail;
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const transcript = await ChatTranscript.query(trx).insert({
      conversationId: body.conversationId ?? null,
      locale: body.locale,
      pageUrl: body.pageUrl ?? null,
      startedAt: (body.startedAt ?? null) as unknown as Date | null,
      messages: body.messages,
      messageCount: body.messages.length,
    });
    let emailMessageId: string | null = null;
    if (to) {
      const message = await recordEmail(
        trx,
        {
          to,
          template: 'chat-transcript',
          locale: 'en',
          data: { transcriptId: transcript.id, conversationId: body.conversationId, locale: body.locale, pageUrl: body.pageUrl, startedAt: body.startedAt, messages: body.messages },
        },
        { enqueue: (queue, data, options) => app.jobs.enqueue(queue, data, options), emailFrom: app.config.emailFrom },
      );
      emailMessageId = message.id;
      await ChatTranscript.query(trx).patch({ emailMessageId: message.id }).where({ id: transcript.id });
    }
    return { id: transcript.id, messageCount: body.messages.length, emailMessageId };
  });
}
