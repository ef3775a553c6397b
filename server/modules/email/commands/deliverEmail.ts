import type { Knex } from 'knex';
import { raw } from 'objection';
import type { Logger } from '../../../platform/logger.ts';
import type { Mailer } from '../../../platform/integrations/mail.ts';
import { domainOf } from '../addresses.ts';
import { openGuestTokens, restoreGuestTokens } from '../guestTokens.ts';
import { EmailAttachment, EmailMessage } from '../models.ts';

/** Sending one recorded message: the `email.send` job's step (../jobs.ts), and its state changes on the ledger row. */

export interface DeliveryDeps {
  knex: Knex;
  mailer: Mailer;
  logger: Logger;
}

export type DeliveryOutcome = 'sent' | 'failed' | 'skipped';

/** An SMTP error the receiving server gave as permanent (5xx) for the envelope or the message: retrying is useless. */
function isPermanent(err: unknown): boolean {
  const e = err as { code?: string; responseCode?: number };
  return (e?.code === 'EENVELOPE' || e?.code === 'EMESSAGE') && typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
}

function describeError(err: unknown): string {
  const e = err as { code?: string; name?: string; message?: string };
  const text = `${e?.code ?? e?.name ?? 'Error'}: ${e?.message ?? String(err)}`;
  return text.length > 1000 ? `${text.slice(0, 997)}...` : text;
}

/**
 * Sends one recorded message. Idempotent: only a QUEUED row is sent (SENT is never sent again; FAILED stays
 * failed). Each call counts an attempt. Success → SENT with the provider's id and answer. A failure is
 * recorded on the row and rethrown so the job engine retries; on the final attempt (`finalAttempt`), or when
 * the receiving server refuses permanently (SMTP 5xx for the envelope or message), the row becomes FAILED and
 * nothing is thrown (there is nothing left to retry).
 *
 * No transaction is held while talking to the mail server. The Message-ID header is derived from the row id,
 * so a retry after a send whose result could not be written carries the same Message-ID (receivers drop it).
 *
 * The row's snapshots have the guest's tokens replaced by placeholders (../guestTokens.ts); each attempt opens the
 * sealed tokens kept beside them and hands the transport the message with its working links. Once the row is SENT
 * or FAILED the sealed tokens are dropped (nothing will send it again). Tokens that no longer open (the sealing key
 * is gone) fail the row at once: the guest is not sent links that do not work.
 */
export async function deliverEmail(deps: DeliveryDeps, messageId: string, options: { finalAttempt?: boolean } = {}): Promise<DeliveryOutcome> {
  const [claimed] = (await EmailMessage.query(deps.knex)
    .where({ id: messageId, status: 'QUEUED' })
    .patch({ attempts: raw('attempts + 1'), lastAttemptAt: raw('now()'), updatedAt: raw('now()') })
    .returning('*')) as unknown as EmailMessage[];
  if (!claimed) {
    const row = await EmailMessage.query(deps.knex).findById(messageId).select('status');
    deps.logger.info({ messageId, status: row?.status ?? null }, 'e-mail not sent: not queued');
    return 'skipped';
  }
  const tokens = await openGuestTokens(deps.knex, claimed.guestTokensSealed);
  if (!tokens) {
    await EmailMessage.query(deps.knex)
      .where({ id: messageId, status: 'QUEUED' })
      .patch({ status: 'FAILED', lastError: 'guest_tokens_unavailable: the sealed guest links could not be opened', guestTokensSealed: null, updatedAt: raw('now()') });
    deps.logger.warn({ messageId }, 'e-mail failed: its guest links could not be restored');
    return 'failed';
  }
  const attachments = await EmailAttachment.query(deps.knex).where('message_id', messageId).orderBy('position');
  try {
    const receipt = await deps.mailer.send({
      from: claimed.fromAddress,
      to: claimed.toAddress,
      subject: restoreGuestTokens(claimed.subject, tokens),
      html: restoreGuestTokens(claimed.htmlBody!, tokens),
      text: restoreGuestTokens(claimed.textBody!, tokens),
      messageId: `<${claimed.id}@${domainOf(claimed.fromAddress)}>`,
      attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content, contentId: a.contentId })),
    });
    await EmailMessage.query(deps.knex)
      .where({ id: messageId, status: 'QUEUED' })
      .patch({
        status: 'SENT',
        providerMessageId: receipt.messageId,
        providerResponse: receipt.response.slice(0, 1000),
        lastError: null,
        guestTokensSealed: null,
        sentAt: raw('now()'),
        updatedAt: raw('now()'),
      });
    deps.logger.info({ messageId, attempt: claimed.attempts, mailer: deps.mailer.kind }, 'e-mail sent');
    return 'sent';
  } catch (err) {
    const permanent = isPermanent(err);
    const failed = permanent || options.finalAttempt === true;
    await EmailMessage.query(deps.knex)
      .where({ id: messageId, status: 'QUEUED' })
      .patch({ lastError: describeError(err), ...(failed ? { status: 'FAILED' as const, guestTokensSealed: null } : {}), updatedAt: raw('now()') });
    deps.logger.warn({ messageId, attempt: claimed.attempts, failed, permanent, err: describeError(err) }, failed ? 'e-mail failed' : 'e-mail attempt failed; will retry');
    if (failed) return 'failed';
    throw err;
  }
}
