import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { Forbidden } from '../../platform/http/problem.ts';
import { recordEmail } from '../email/index.ts';

export const handlers = {
  async notifyChatTranscript(call) {
    // A server-to-server call: a browser always sends Origin on a cross-origin POST, so one carrying it is refused.
    if (call.header('origin')) throw Forbidden('browser_not_allowed', 'This endpoint is for the assistant service, not for browsers.');
    const { app } = call;
    const body = call.body;
    const to = app.config.venueNotificationsEmail;
    const receipt = await app.db.knex.transaction(async (trx) => {
      const [row] = (await trx('chat_transcripts')
        .insert({
          conversation_id: body.conversationId ?? null,
          locale: body.locale,
          page_url: body.pageUrl ?? null,
          started_at: body.startedAt ?? null,
          messages: JSON.stringify(body.messages),
          message_count: body.messages.length,
        })
        .returning('id')) as Array<{ id: string }>;
      let emailMessageId: string | null = null;
      if (to) {
        const message = await recordEmail(
          trx,
          {
            to,
            template: 'chat-transcript',
            locale: 'en',
            data: { transcriptId: row.id, conversationId: body.conversationId, locale: body.locale, pageUrl: body.pageUrl, startedAt: body.startedAt, messages: body.messages },
          },
          { enqueue: (queue, data, options) => app.jobs.enqueue(queue, data, options), emailFrom: app.config.emailFrom },
        );
        emailMessageId = message.id;
        await trx('chat_transcripts').where({ id: row.id }).update({ email_message_id: message.id });
      }
      return { id: row.id, messageCount: body.messages.length, emailMessageId };
    });
    call.log.info({ transcriptId: receipt.id, messages: receipt.messageCount, emailed: Boolean(receipt.emailMessageId) }, 'chat transcript stored');
    return json(201, receipt);
  },
} satisfies Partial<OperationHandlers>;
