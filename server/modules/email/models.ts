import { Model } from 'objection';
import { BaseModel } from '../../platform/db/model.ts';

export const EMAIL_STATUSES = ['QUEUED', 'SENT', 'FAILED'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** What the ledger row says about one attachment; its bytes are in `email_attachments`. */
export interface AttachmentDescriptor {
  filename: string;
  contentType: string;
  size: number;
  /** Inline image (`cid:<contentId>` in the HTML); null for a file attachment. */
  contentId: string | null;
}

/**
 * One outbound e-mail (ledger row). `htmlBody`/`textBody` are the rendered snapshots, with any guest token in them
 * replaced by its placeholder (./guestTokens.ts); `guestTokensSealed` holds those tokens, sealed, until the row is
 * delivered (SENT) or given up (FAILED), and is never presented.
 */
export class EmailMessage extends BaseModel {
  static override tableName = 'email_messages';
  status!: EmailStatus;
  toAddress!: string;
  fromAddress!: string;
  subject!: string;
  template!: string;
  locale!: string;
  customerId!: string | null;
  reservationId!: string | null;
  // `declare`: absent from a listed row (the list never selects them), not present as undefined.
  declare htmlBody?: string;
  declare textBody?: string;
  declare guestTokensSealed?: string | null;
  attachments!: AttachmentDescriptor[];
  attempts!: number;
  providerMessageId!: string | null;
  providerResponse!: string | null;
  lastError!: string | null;
  lastAttemptAt!: Date | null;
  sentAt!: Date | null;

  static override get jsonAttributes() {
    return ['attachments'];
  }
}

/** The bytes of one attachment, in the order the message lists them (`position`). */
export class EmailAttachment extends Model {
  static override tableName = 'email_attachments';
  id!: string;
  messageId!: string;
  position!: number;
  filename!: string;
  contentType!: string;
  contentId!: string | null;
  size!: number;
  content!: Buffer;
  createdAt!: Date;

  static override get columnNameMappers() {
    return BaseModel.columnNameMappers;
  }
}
