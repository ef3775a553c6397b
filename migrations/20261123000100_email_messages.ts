import type { Knex } from 'knex';

/**
 * The outbound e-mail ledger: one row per message (QUEUED → SENT | FAILED), with the rendered snapshots of what
 * was (or will be) sent, and its attachments' bytes in a side table.
 *
 * Attachment content is stored (bytea), not regenerated at send time: the send job must be able to send exactly
 * what was recorded, from any process, on any retry, without knowing how each attachment was produced (a QR
 * code today, an invoice PDF or a caller's upload tomorrow), and a later resend or audit sees the same bytes.
 * The bytes live apart from `email_messages` so listing and reading the ledger never loads them; the row keeps
 * only their descriptors (`attachments` jsonb). The service caps their total size per message.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('email_messages', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('status').notNullable().defaultTo('QUEUED');
    t.text('to_address').notNullable();
    t.text('from_address').notNullable();
    t.text('subject').notNullable();
    t.text('template').notNullable();
    t.text('locale').notNullable();
    // No foreign keys yet: the customers and reservations tables do not exist. The migration that creates them
    // adds the constraints (ON DELETE SET NULL: the e-mail history is kept when a customer is deleted, spec §3).
    t.uuid('customer_id');
    t.uuid('reservation_id');
    // Snapshots of the rendered message: what the send job sends, byte for byte, on every attempt.
    t.text('html_body').notNullable();
    t.text('text_body').notNullable();
    // [{ filename, contentType, size, contentId?, inline }]; the bytes are in email_attachments.
    t.jsonb('attachments').notNullable().defaultTo('[]');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('provider_message_id');
    t.text('provider_response');
    t.text('last_error');
    t.timestamp('last_attempt_at', { useTz: true });
    t.timestamp('sent_at', { useTz: true });
    t.timestamps(true, true);
    t.check("status in ('QUEUED', 'SENT', 'FAILED')", [], 'email_messages_status_check');
    t.check('attempts >= 0', [], 'email_messages_attempts_check');
    t.check("(status = 'SENT') = (sent_at is not null)", [], 'email_messages_sent_at_check');
    // List filters; newest first within each.
    t.index(['status', 'created_at'], 'email_messages_status_idx');
    t.index(['customer_id', 'created_at'], 'email_messages_customer_idx');
    t.index(['reservation_id', 'created_at'], 'email_messages_reservation_idx');
    t.index(['template', 'created_at'], 'email_messages_template_idx');
    t.index(['created_at'], 'email_messages_created_at_idx');
  });
  // Recipients are filtered case-insensitively.
  await knex.raw('create index email_messages_recipient_idx on email_messages (lower(to_address), created_at)');

  await knex.schema.createTable('email_attachments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('message_id').notNullable().references('email_messages.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('filename').notNullable();
    t.text('content_type').notNullable();
    // Set for an inline image the HTML refers to as `cid:<content_id>`.
    t.text('content_id');
    t.integer('size').notNullable();
    t.binary('content').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['message_id', 'position']);
    t.check('size = octet_length(content)', [], 'email_attachments_size_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_attachments');
  await knex.schema.dropTable('email_messages');
}
