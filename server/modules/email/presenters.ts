import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';
import type { EmailMessage } from './models.ts';

/** A ledger row in a list: delivery metadata and links, never the rendered snapshots (spec §2.3). */
export function presentEmailListItem(message: EmailMessage): Schema<'EmailMessageSummary'> {
  return {
    id: message.id,
    status: message.status,
    to: message.toAddress,
    from: message.fromAddress,
    subject: message.subject,
    template: message.template,
    locale: message.locale,
    customerId: message.customerId,
    reservationId: message.reservationId,
    attachments: (message.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: a.size,
      contentId: a.contentId,
    })),
    attempts: message.attempts,
    providerMessageId: message.providerMessageId,
    lastError: message.lastError,
    lastAttemptAt: iso(message.lastAttemptAt),
    sentAt: iso(message.sentAt),
    createdAt: iso(message.createdAt)!,
    updatedAt: iso(message.updatedAt)!,
  };
}

/** One message as staff follow it: the list fields and the provider's answer, never the rendered snapshots. */
export function presentEmailMessage(message: EmailMessage): Schema<'EmailMessage'> {
  return {
    ...presentEmailListItem(message),
    providerResponse: message.providerResponse,
  };
}

/**
 * One message with its rendered HTML and text (admin+): the ledger's snapshots, in which a guest's token already
 * stands as its placeholder (./guestTokens.ts). The sealed tokens are never presented.
 */
export function presentEmailMessageContent(message: EmailMessage): Schema<'EmailMessageContent'> {
  return {
    ...presentEmailMessage(message),
    htmlBody: message.htmlBody ?? '',
    textBody: message.textBody ?? '',
  };
}
