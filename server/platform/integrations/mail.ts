import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from '../logger.ts';

/** One attachment as handed to the transport: a file, or an inline image when `contentId` is set (`cid:`). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  /** Inline image referred to from the HTML as `cid:<contentId>`. */
  contentId?: string | null;
}

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** The Message-ID header, `<…@…>`; the same on every attempt, so receivers can drop a duplicate. */
  messageId: string;
  attachments?: MailAttachment[];
}

export interface DeliveryReceipt {
  /** What the provider knows the message by (the Message-ID it accepted). */
  messageId: string;
  /** The provider's answer: the SMTP reply line (`250 … queued as …`), or the outbox file. */
  response: string;
}

/** Sends one message or throws. `kind` says where messages go. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<DeliveryReceipt>;
  close(): void;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:port` / `smtps://…`; unset → the development outbox. */
  smtpUrl?: string;
  /** Where the outbox writes (`<dataDir>/outbox/`). */
  dataDir: string;
  /** SMTP connection, greeting and socket time-out. */
  timeoutMs: number;
}

/** `SMTP_URL` set → SMTP; unset → `.eml` files under `<DATA_DIR>/outbox/` (development: nothing leaves the machine). */
export function createMailer(options: MailerOptions, logger: Logger): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.timeoutMs) : outboxMailer(path.join(options.dataDir, 'outbox'), logger);
}

function toNodemailer(mail: OutgoingMail) {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: mail.messageId,
    attachments: (mail.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
      ...(a.contentId ? { cid: a.contentId, contentDisposition: 'inline' as const } : {}),
    })),
    // Header values are never taken from an address's display name as raw text: nodemailer encodes them.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/**
 * A nodemailer transport made on the first send: nodemailer is loaded then (a tenth of a second of every start
 * otherwise). Closing before any send has nothing to close.
 */
function lazyTransport(make: (mailer: (typeof import('nodemailer'))['default']) => Transporter): { get(): Promise<Transporter>; close(): void } {
  let made: Promise<Transporter> | undefined;
  let closed = false;
  return {
    get: () => (made ??= import('nodemailer').then((loaded) => make(loaded.default))),
    close: () => {
      if (closed) return;
      closed = true;
      void made?.then((transport) => transport.close(), () => undefined);
    },
  };
}

function smtpMailer(url: string, timeoutMs: number): Mailer {
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({
    url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // One connection per message: sends come from the job queue at a modest rate, and a broken pooled
    // connection would fail the next message for a reason of its own.
    pool: false,
  } as Parameters<typeof nodemailer.createTransport>[0]));
  return {
    kind: 'smtp',
    async send(mail) {
      const info = (await (await transport.get()).sendMail(toNodemailer(mail))) as { messageId: string; response?: string };
      return { messageId: info.messageId, response: String(info.response ?? '') };
    },
    close: () => transport.close(),
  };
}

/**
 * The development outbox: each message is built as a complete RFC 822 message (nodemailer's stream transport,
 * CRLF line ends) and written as `<time>-<id>.eml`, which any mail client opens. Its path is logged.
 */
function outboxMailer(dir: string, logger: Logger): Mailer {
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }));
  return {
    kind: 'outbox',
    async send(mail) {
      const info = (await (await transport.get()).sendMail(toNodemailer(mail))) as { messageId: string; message: Buffer };
      await fs.mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${randomUUID()}.eml`);
      await fs.writeFile(file, info.message, { mode: 0o600 });
      logger.info({ file }, 'e-mail written to the development outbox');
      return { messageId: info.messageId, response: `outbox ${file}` };
    },
    close: () => transport.close(),
  };
}
