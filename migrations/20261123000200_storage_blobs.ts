import type { Knex } from 'knex';

/**
 * Storage blobs (spec §2.3): one row per stored object. Deleting the object keeps the row
 * (`object_deleted_at` set); the hard cleanup marks rows whose object is gone.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('storage_blobs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('key').notNullable().unique();
    t.text('content_type').notNullable();
    t.bigInteger('byte_size').notNullable();
    t.text('sha256').notNullable();
    t.text('purpose').notNullable();
    t.text('original_filename');
    t.uuid('uploaded_by_account_id').references('accounts.id').onDelete('SET NULL');
    t.timestamp('object_deleted_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['purpose', 'created_at']);
    t.index(['uploaded_by_account_id']);
    t.check("purpose in ('show-image', 'sticker', 'seed-asset', 'attachment')", [], 'storage_blobs_purpose_check');
    t.check("sha256 ~ '^[0-9a-f]{64}$'", [], 'storage_blobs_sha256_check');
    t.check('byte_size >= 0', [], 'storage_blobs_byte_size_check');
    t.check("content_type = lower(content_type) and content_type like '%/%'", [], 'storage_blobs_content_type_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('storage_blobs');
}
