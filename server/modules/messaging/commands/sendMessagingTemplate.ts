import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Problem, ServiceUnavailable, Unprocessable } from '../../../platform/http/problem.ts';
import { WhatsAppError } from '../../../platform/integrations/whatsapp.ts';
import type { Logger } from '../../../platform/logger.ts';

export type SendMessagingTemplateInput = operations['sendMessagingTemplate']['requestBody']['content']['application/json'];

/**
 * Sends one approved WhatsApp template (nothing is written here): 503 unless the Cloud API is configured, 422
 * `messaging_rejected` when Meta refuses the request (a 4xx other than 429), 502 `messaging_unavailable` otherwise.
 */
export async function sendMessagingTemplate(app: AppContext, input: SendMessagingTemplateInput, log: Logger): Promise<{ messageId: string | null; waId: string | null }> {
  const client = app.whatsApp;
  if (!client.isConfigured) throw ServiceUnavailable('not_configured', 'MESSAGING_PHONE_NUMBER_ID and MESSAGING_ACCESS_TOKEN are required.');
  const to = input.to.replace(/^\+/, '');
  try {
    const result = await client.sendTemplate(to, input.template);
    log.info({ template: input.template.name, messageId: result.messageId }, 'whatsapp template sent');
    return { messageId: result.messageId ?? null, waId: result.waId ?? null };
  } catch (err) {
    if (!(err instanceof WhatsAppError)) throw err;
    const g = err.graph;
    log.warn({ code: err.code, httpStatus: err.status, graphCode: g?.code, graphSubcode: g?.error_subcode, fbtraceId: g?.fbtrace_id }, 'whatsapp template send failed');
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
}
