import type { Knex } from 'knex';

/**
 * Chat channels (issue 10): the chat-platform webhook (ManyChat), the messaging webhook (WhatsApp Cloud API) and
 * the website chat's transcript notifications.
 *
 * - `chat_turns`: one row per guest message answered in the background. QUEUED → GENERATING → GENERATED →
 *   SENDING → SENT | FAILED. The row keeps the status, the attempts, the error (code and detail, never a secret)
 *   and the timings of each step. The guest's text (`guest_text`) and the generated answer (`reply_text`) exist
 *   only while the turn runs: both are set to null when it ends (SENT or FAILED). `external_message_id` is the
 *   platform's message id (WhatsApp `wamid…`): unique per source, so a duplicate delivery finds the first turn.
 * - `chat_transcripts`: the full website chat transcript an internal notification carried, and the e-mail
 *   ledger row that sent it to the venue.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chat_turns', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('source').notNullable();
    t.text('channel').notNullable();
    // ManyChat subscriber id, or the guest's WhatsApp id (their number): where the answer goes.
    t.text('recipient').notNullable();
    t.text('external_message_id');
    t.text('locale').notNullable();
    t.text('status').notNullable().defaultTo('QUEUED');
    t.text('guest_text');
    t.text('reply_text');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('invalid_links').notNullable().defaultTo(0);
    t.text('error_code');
    t.text('error_detail');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('generation_started_at', { useTz: true });
    t.timestamp('generated_at', { useTz: true });
    t.timestamp('send_started_at', { useTz: true });
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.timestamps(true, true);
    t.check("source in ('chat-platform', 'whatsapp')", [], 'chat_turns_source_check');
    t.check("status in ('QUEUED', 'GENERATING', 'GENERATED', 'SENDING', 'SENT', 'FAILED')", [], 'chat_turns_status_check');
    t.check("(status in ('SENT', 'FAILED')) = (finished_at is not null)", [], 'chat_turns_finished_check');
    t.check("status not in ('SENT', 'FAILED') or (guest_text is null and reply_text is null)", [], 'chat_turns_text_deleted_check');
    t.unique(['source', 'external_message_id'], { indexName: 'chat_turns_external_message_unique' });
    t.index(['status', 'created_at'], 'chat_turns_status_idx');
  });

  await knex.schema.createTable('chat_transcripts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('conversation_id');
    t.text('locale').notNullable();
    t.text('page_url');
    t.jsonb('messages').notNullable();
    t.integer('message_count').notNullable();
    t.uuid('email_message_id').references('email_messages.id').onDelete('SET NULL');
    t.timestamp('started_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['created_at'], 'chat_transcripts_created_at_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('chat_transcripts');
  await knex.schema.dropTableIfExists('chat_turns');
}
