import type { Knex } from 'knex';
import { Unprocessable } from '../../../platform/http/problem.ts';
import { displayName } from '../addresses.ts';
import { redactGuestLinks, redactTokens, sealGuestTokens } from '../guestTokens.ts';
import { EmailAttachment, EmailMessage, type AttachmentDescriptor } from '../models.ts';
import { renderTemplate, type TemplateDataMap, type TemplateName } from '../templates.ts';

/** The job queue of e-mail sends; its handler is in ../jobs.ts (./deliverEmail.ts). */
export const EMAIL_SEND_QUEUE = 'email.send';

/**
 * Puts a job on a queue, inside `trx` when given (the job exists only if the transaction commits). The job
 * engine's `enqueue` has this shape; it is injected so this module does not depend on the engine.
 */
export type Enqueue = (queue: string, data: object, options?: { trx?: Knex.Transaction }) => Promise<string | null>;

export interface EmailSendJobData {
  messageId: string;
}

/** A file attachment, or an inline image when `contentId` is set (the HTML refers to it as `cid:<contentId>`). */
export interface AttachmentInput {
  filename: string;
  contentType: string;
  content: Buffer;
  contentId?: string;
}

interface CommonInput {
  /** One address (`guest@example.com`). */
  to: string;
  /** `en`, `vi` (or `vi-VN`, …); a locale without its template file falls back to `en`. */
  locale?: string | null;
  customerId?: string | null;
  reservationId?: string | null;
  /** Added after the attachments the template itself adds (e.g. the check-in QR code). */
  attachments?: AttachmentInput[];
}

/** The template name decides the shape of `data`. */
export type RecordEmailInput = { [K in TemplateName]: CommonInput & { template: K; data: TemplateDataMap[K] } }[TemplateName];

export interface RecordEmailDeps {
  enqueue: Enqueue;
  /** `EMAIL_FROM`. */
  emailFrom: string;
  /** `VENUE_TIMEZONE`: the zone dates and times are written in (default Asia/Ho_Chi_Minh). */
  timeZone?: string;
}

/** Limits that keep the ledger (which stores attachment bytes) and the messages reasonable. */
export const MAX_ATTACHMENTS = 10;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const CONTENT_TYPE = /^[a-z0-9][\w.+-]*\/[a-z0-9][\w.+-]*$/i;
const CONTENT_ID = /^[\w.+-]+(@[\w.-]+)?$/;

/**
 * Recording a message (the write every e-mail starts with, run in the caller's unit of work: a guest message's
 * command, an inquiry's, a customer e-mail's…). Renders `input.template` and writes the QUEUED ledger row (with its
 * attachments) in the caller's transaction, then enqueues the send job in that same transaction: a rolled-back
 * caller leaves neither a row nor a job, and a committed one always has both. Returns the row (with its snapshots).
 *
 * A guest's token in a link of the message (the manage-booking link, a waiting-list offer: ../guestTokens.ts) never
 * reaches the snapshots staff read: the row keeps the message rendered with a placeholder in its place, and the
 * tokens sealed (`guest_tokens_sealed`) for the send job, which puts them back in the copy it hands to the transport.
 */
export async function recordEmail(trx: Knex.Transaction, input: RecordEmailInput, deps: RecordEmailDeps): Promise<EmailMessage> {
  const to = input.to?.trim() ?? '';
  if (to.length > 254 || !ADDRESS.test(to)) {
    throw Unprocessable('invalid_recipient', 'The recipient is not a single valid e-mail address.', [
      { path: 'to', message: 'must be one e-mail address', code: 'format' },
    ]);
  }
  const redacted = redactGuestLinks(input.template, input.data);
  const rendered = await renderTemplate(input.template, input.locale, redacted.data as never, { venueName: displayName(deps.emailFrom), timeZone: deps.timeZone });
  const attachments = [...rendered.attachments, ...(input.attachments ?? [])];
  checkAttachments(attachments);
  const descriptors: AttachmentDescriptor[] = attachments.map((a) => ({
    filename: a.filename,
    contentType: a.contentType.toLowerCase(),
    size: a.content.length,
    contentId: a.contentId ?? null,
  }));

  const message = await EmailMessage.query(trx).insertAndFetch({
    status: 'QUEUED',
    toAddress: to,
    fromAddress: deps.emailFrom,
    subject: redactTokens(rendered.subject, redacted.tokens),
    template: input.template,
    locale: rendered.locale,
    customerId: input.customerId ?? null,
    reservationId: input.reservationId ?? null,
    htmlBody: redactTokens(rendered.html, redacted.tokens),
    textBody: redactTokens(rendered.text, redacted.tokens),
    guestTokensSealed: await sealGuestTokens(trx, redacted.tokens),
    attachments: descriptors,
  });
  if (attachments.length) {
    await EmailAttachment.query(trx).insert(
      attachments.map((a, position) => ({
        messageId: message.id,
        position,
        filename: a.filename,
        contentType: descriptors[position].contentType,
        contentId: a.contentId ?? null,
        size: a.content.length,
        content: a.content,
      })),
    );
  }
  await deps.enqueue(EMAIL_SEND_QUEUE, { messageId: message.id } satisfies EmailSendJobData, { trx });
  return message;
}

function checkAttachments(attachments: AttachmentInput[]): void {
  // Attachments are built by the server (templates, its own callers): a bad one is a bug here, not the caller's (500).
  const invalid = (detail: string) => new Error(`invalid e-mail attachment: ${detail}`);
  if (attachments.length > MAX_ATTACHMENTS) throw invalid(`At most ${MAX_ATTACHMENTS} attachments.`);
  let total = 0;
  for (const a of attachments) {
    if (!Buffer.isBuffer(a.content)) throw invalid('An attachment has no content.');
    if (!a.filename || /[\r\n\\/]/.test(a.filename) || a.filename.length > 200) throw invalid('An attachment has an invalid file name.');
    if (!CONTENT_TYPE.test(a.contentType)) throw invalid('An attachment has an invalid content type.');
    if (a.contentId !== undefined && !CONTENT_ID.test(a.contentId)) throw invalid('An attachment has an invalid content id.');
    total += a.content.length;
  }
  if (total > MAX_ATTACHMENT_BYTES) throw invalid(`Attachments are limited to ${MAX_ATTACHMENT_BYTES} bytes per message.`);
}
