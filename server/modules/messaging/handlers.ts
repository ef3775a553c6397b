import type { OperationHandlers } from '../../platform/http/handler.ts';
import { noteAddressOf } from '../assistant/index.ts';
import { json } from '../../platform/http/handler.ts';
import { Forbidden, Problem, ServiceUnavailable, Unprocessable } from '../../platform/http/problem.ts';
import { WhatsAppError } from '../../platform/integrations/whatsapp.ts';
import { insertTurn } from '../chatPlatform/index.ts';
import { MESSAGING_REPLY_QUEUE } from './jobs.ts';
import { inboundTexts, localeOfText, validSignature, whatsAppFor } from './service.ts';

export const handlers = {
  verifyMessagingWebhook(call) {
    // The verify token itself was checked by the access layer (x-access messaging-verify-token).
    if (call.query['hub.mode'] !== 'subscribe') throw Forbidden('invalid_mode', 'hub.mode must be subscribe.');
    return { status: 200, body: String(call.query['hub.challenge'] ?? ''), contentType: 'text/plain; charset=utf-8' };
  },

  async receiveMessagingWebhook(call) {
    const secret = call.app.config.messaging.appSecret;
    if (secret && !validSignature(call.rawBody ?? Buffer.alloc(0), call.header('x-hub-signature-256'), secret)) {
      throw new Problem(401, 'invalid_signature', 'Authentication required', { detail: 'X-Hub-Signature-256 is missing or does not match the body.' });
    }
    const { texts, ignored } = inboundTexts(call.body);
    // The agent's tools call this service back at the address this request arrived on.
    noteAddressOf(call);
    let queued = 0;
    const siteLocales = call.app.config.siteLocales;
    await call.app.db.knex.transaction(async (trx) => {
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
        await call.app.jobs.enqueue(MESSAGING_REPLY_QUEUE, { turnId }, { trx });
        queued++;
      }
    });
    const duplicates = texts.length - queued;
    if (texts.length) call.log.info({ queued, duplicates, ignored }, 'whatsapp messages received');
    return json(200, { queued, duplicates, ignored });
  },

  async sendMessagingTemplate(call) {
    const client = whatsAppFor(call.app);
    if (!client.isConfigured) throw ServiceUnavailable('not_configured', 'MESSAGING_PHONE_NUMBER_ID and MESSAGING_ACCESS_TOKEN are required.');
    const to = call.body.to.replace(/^\+/, '');
    try {
      const result = await client.sendTemplate(to, call.body.template);
      call.log.info({ template: call.body.template.name, messageId: result.messageId }, 'whatsapp template sent');
      return json(200, { messageId: result.messageId ?? null, waId: result.waId ?? null });
    } catch (err) {
      if (!(err instanceof WhatsAppError)) throw err;
      const g = err.graph;
      call.log.warn({ code: err.code, httpStatus: err.status, graphCode: g?.code, graphSubcode: g?.error_subcode, fbtraceId: g?.fbtrace_id }, 'whatsapp template send failed');
      const said = g
        ? `Meta answered ${err.status}: ${g.message ?? 'error'} (code ${g.code ?? '?'}${g.error_subcode ? `, subcode ${g.error_subcode}` : ''}${g.fbtrace_id ? `, fbtrace_id ${g.fbtrace_id}` : ''})`
        : err.message;
      if (err.code === 'api_error' && err.status && err.status < 500 && err.status !== 429) {
        throw Unprocessable('messaging_rejected', said, [
          { path: 'body/template', message: g?.error_user_msg ?? g?.message ?? 'rejected by Meta', code: 'messaging_rejected' },
        ]);
      }
      throw new Problem(502, 'messaging_unavailable', 'Bad gateway', { detail: said });
    }
  },
} satisfies Partial<OperationHandlers>;
