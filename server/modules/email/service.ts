import type { Knex } from 'knex';
import { NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { CANONICAL_UUID } from '../../platform/http/validation.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/integrations/mail.ts';
import { EmailAttachment, EmailMessage, type AttachmentDescriptor, type EmailStatus } from './models.ts';
import { renderTemplate, type TemplateDataMap, type TemplateName } from './templates.ts';

/** The job queue of e-mail sends; its handler is in jobs.ts. */
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
 * Renders `input.template` and writes the QUEUED ledger row (with its attachments) in the caller's transaction,
 * then enqueues the send job in that same transaction: a rolled-back caller leaves neither a row nor a job, and
 * a committed one always has both. Returns the row (with its snapshots).
 */
export async function recordEmail(trx: Knex.Transaction, input: RecordEmailInput, deps: RecordEmailDeps): Promise<EmailMessage> {
  const to = input.to?.trim() ?? '';
  if (to.length > 254 || !ADDRESS.test(to)) {
    throw Unprocessable('invalid_recipient', 'The recipient is not a single valid e-mail address.', [
      { path: 'to', message: 'must be one e-mail address', code: 'format' },
    ]);
  }
  const rendered = await renderTemplate(input.template, input.locale, input.data as never, { venueName: displayName(deps.emailFrom), timeZone: deps.timeZone });
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
    subject: rendered.subject,
    template: input.template,
    locale: rendered.locale,
    customerId: input.customerId ?? null,
    reservationId: input.reservationId ?? null,
    htmlBody: rendered.html,
    textBody: rendered.text,
    attachments: descriptors,
  });
  if (attachments.length) {
    await trx('email_attachments').insert(
      attachments.map((a, position) => ({
        message_id: message.id,
        position,
        filename: a.filename,
        content_type: descriptors[position].contentType,
        content_id: a.contentId ?? null,
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

/** `Venue <no-reply@venue.local>` → `Venue`; a bare address → its domain. */
export function displayName(from: string): string {
  const match = /^\s*"?([^"<]*?)"?\s*</.exec(from);
  return match?.[1]?.trim() || domainOf(from);
}

function domainOf(address: string): string {
  const match = /@([^>\s]+)>?\s*$/.exec(address);
  return match?.[1] ?? 'localhost';
}

// ---------------------------------------------------------------------------------------------------------
// Reading the ledger

/** Every column but the rendered snapshots: the list never reads them (spec §2.3). */
export const LIST_COLUMNS = [
  'id',
  'status',
  'to_address',
  'from_address',
  'subject',
  'template',
  'locale',
  'customer_id',
  'reservation_id',
  'attachments',
  'attempts',
  'provider_message_id',
  'provider_response',
  'last_error',
  'last_attempt_at',
  'sent_at',
  'created_at',
  'updated_at',
] as const;

export interface EmailListFilters {
  status?: EmailStatus;
  /** Recipient, matched case-insensitively and exactly. */
  to?: string;
  customerId?: string;
  reservationId?: string;
  template?: string;
  createdFrom?: Date | string;
  createdTo?: Date | string;
}

export interface Paging {
  limit?: number;
  offset?: number;
}

export interface EmailPage {
  items: EmailMessage[];
  total: number;
  limit: number;
  offset: number;
}

/** Newest first. The items carry no `htmlBody`/`textBody`. */
export async function listMessages(knex: Knex, filters: EmailListFilters = {}, paging: Paging = {}): Promise<EmailPage> {
  const limit = Math.min(Math.max(paging.limit ?? 50, 1), 200);
  const offset = Math.max(paging.offset ?? 0, 0);
  const base = EmailMessage.query(knex);
  if (filters.status) base.where('status', filters.status);
  if (filters.to) base.whereRaw('lower(to_address) = ?', [filters.to.trim().toLowerCase()]);
  if (filters.customerId) base.where('customer_id', filters.customerId);
  if (filters.reservationId) base.where('reservation_id', filters.reservationId);
  if (filters.template) base.where('template', filters.template);
  if (filters.createdFrom) base.where('created_at', '>=', new Date(filters.createdFrom));
  if (filters.createdTo) base.where('created_at', '<', new Date(filters.createdTo));
  const [items, total] = await Promise.all([
    base.clone().select(LIST_COLUMNS as unknown as string[]).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]).limit(limit).offset(offset),
    base.clone().resultSize(),
  ]);
  return { items, total, limit, offset };
}

/** One message with its snapshots; 404 when there is none. */
export async function getMessage(knex: Knex, id: string): Promise<EmailMessage> {
  const message = CANONICAL_UUID.test(id) ? await EmailMessage.query(knex).findById(id) : undefined;
  if (!message) throw NotFound('No e-mail message with this id.');
  return message;
}

// ---------------------------------------------------------------------------------------------------------
// Sending (the email.send job)

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
 */
export async function deliverEmail(deps: DeliveryDeps, messageId: string, options: { finalAttempt?: boolean } = {}): Promise<DeliveryOutcome> {
  const [claimed] = (await deps
    .knex('email_messages')
    .where({ id: messageId, status: 'QUEUED' })
    .update({ attempts: deps.knex.raw('attempts + 1'), last_attempt_at: deps.knex.fn.now(), updated_at: deps.knex.fn.now() })
    .returning('*')) as Array<Record<string, any>>;
  if (!claimed) {
    const row = await deps.knex('email_messages').where('id', messageId).first('status');
    deps.logger.info({ messageId, status: row?.status ?? null }, 'e-mail not sent: not queued');
    return 'skipped';
  }
  const attachments = await EmailAttachment.query(deps.knex).where('message_id', messageId).orderBy('position');
  try {
    const receipt = await deps.mailer.send({
      from: claimed.from_address,
      to: claimed.to_address,
      subject: claimed.subject,
      html: claimed.html_body,
      text: claimed.text_body,
      messageId: `<${claimed.id}@${domainOf(claimed.from_address)}>`,
      attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content, contentId: a.contentId })),
    });
    await deps
      .knex('email_messages')
      .where({ id: messageId, status: 'QUEUED' })
      .update({
        status: 'SENT',
        provider_message_id: receipt.messageId,
        provider_response: receipt.response.slice(0, 1000),
        last_error: null,
        sent_at: deps.knex.fn.now(),
        updated_at: deps.knex.fn.now(),
      });
    deps.logger.info({ messageId, attempt: claimed.attempts, mailer: deps.mailer.kind }, 'e-mail sent');
    return 'sent';
  } catch (err) {
    const permanent = isPermanent(err);
    const failed = permanent || options.finalAttempt === true;
    await deps
      .knex('email_messages')
      .where({ id: messageId, status: 'QUEUED' })
      .update({ last_error: describeError(err), ...(failed ? { status: 'FAILED' } : {}), updated_at: deps.knex.fn.now() });
    deps.logger.warn({ messageId, attempt: claimed.attempts, failed, permanent, err: describeError(err) }, failed ? 'e-mail failed' : 'e-mail attempt failed; will retry');
    if (failed) return 'failed';
    throw err;
  }
}
